package dev.outboxrelay.dedup;

import static io.opentelemetry.sdk.testing.assertj.OpenTelemetryAssertions.assertThat;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The adapters' consumer spans over a real dedup transaction: records are built in the test (the
 * broker adds nothing to what is traced here; the end-to-end IT in integration-tests goes through
 * Kafka).
 */
class PostgresTracingIT extends DbFixture {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();
  @RegisterExtension static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

  static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("outbox.dedup.outcome");
  static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");

  private final Map<String, SpanContext> seenByHandler = new ConcurrentHashMap<>();

  @Override
  DatabaseServer server() {
    return DB.server();
  }

  private Dedup traced() {
    return Dedup.builder()
        .store(store)
        .group("billing")
        .openTelemetry(OTEL.getOpenTelemetry())
        .build();
  }

  private DedupHandler<ConsumerRecord<String, String>> effectSeeingItsSpan() {
    return (c, r) -> {
      String id = KafkaDedup.identity(r).id();
      seenByHandler.put(id, Span.current().getSpanContext());
      insertEffect(c, id);
    };
  }

  @Test
  void aRecordHandlerRunsInAConsumerSpanParentedToTheRecordsTraceparent() {
    Sent sent = new Sent();
    ConsumerRecord<String, String> r = record(sent);
    MessageHandler<ConsumerRecord<String, String>> handler =
        KafkaDedup.recordHandler(traced(), effectSeeingItsSpan());

    assertThat(handler.handle(r)).isEqualTo(Outcome.PROCESSED);
    assertThat(handler.handle(r)).isEqualTo(Outcome.DUPLICATE);

    List<SpanData> spans = OTEL.getSpans();
    assertThat(spans).hasSize(2);
    for (SpanData s : spans) {
      assertThat(s)
          .hasName("process orders")
          .hasKind(SpanKind.CONSUMER)
          .hasTraceId(sent.traceId)
          .hasParentSpanId(sent.spanId)
          .hasAttribute(MESSAGE_ID, sent.id)
          .hasAttribute(AttributeKey.stringKey("messaging.system"), "kafka");
      assertThat(s.getLinks())
          .singleElement()
          .satisfies(l -> assertThat(l.getSpanContext().getSpanId()).isEqualTo(sent.spanId));
    }
    assertThat(spans.get(0)).hasAttribute(OUTCOME, "processed");
    assertThat(spans.get(1)).hasAttribute(OUTCOME, "duplicate");
    assertThat(seenByHandler.get(sent.id)).isEqualTo(spans.get(0).getSpanContext());
  }

  @Test
  void aFailingHandlerLeavesAnErrorSpanWithItsException() {
    Sent sent = new Sent();
    MessageHandler<ConsumerRecord<String, String>> handler =
        KafkaDedup.recordHandler(
            traced(),
            (c, r) -> {
              throw new IllegalStateException("boom");
            });

    assertThatThrownBy(() -> handler.handle(record(sent)))
        .isInstanceOf(DedupHandlerException.class);

    SpanData s = OTEL.getSpans().get(0);
    assertThat(s).hasStatusSatisfying(st -> st.hasCode(StatusCode.ERROR)).hasTraceId(sent.traceId);
    assertThat(s.getEvents())
        .anySatisfy(
            e ->
                assertThat(e.getAttributes().get(AttributeKey.stringKey("exception.type")))
                    .isEqualTo(IllegalStateException.class.getName()));
  }

  @Test
  void inABatchEachRecordsHandlerRunsInItsOwnSpanAndADuplicateGetsOneToo() {
    Sent first = new Sent();
    Sent second = new Sent();
    BatchHandler<ConsumerRecord<String, String>> batch =
        traced()
            .transactionalBatch(
                KafkaDedup::identity,
                KafkaDedup::traced,
                DedupBatchHandler.each(effectSeeingItsSpan()));

    assertThat(batch.handle(List.of(record(first))).complete()).isTrue();
    OTEL.clearSpans();
    assertThat(batch.handle(List.of(record(first), record(second))).outcomes())
        .containsExactly(Outcome.DUPLICATE, Outcome.PROCESSED);

    List<SpanData> spans = OTEL.getSpans();
    assertThat(spans).hasSize(2);
    SpanData duplicate = byParent(spans, first.spanId);
    SpanData processed = byParent(spans, second.spanId);
    assertThat(duplicate).hasTraceId(first.traceId).hasAttribute(OUTCOME, "duplicate");
    assertThat(processed).hasTraceId(second.traceId).hasAttribute(OUTCOME, "processed");
    assertThat(seenByHandler.get(second.id)).isEqualTo(processed.getSpanContext());
  }

  @Test
  void aBatchHandlerRunsInOneSpanLinkedToEachNewRecord() {
    List<Sent> sent = List.of(new Sent(), new Sent(), new Sent());
    List<ConsumerRecord<String, String>> records = new ArrayList<>();
    sent.forEach(s -> records.add(record(s)));
    List<SpanContext> seen = new ArrayList<>();
    BatchHandler<ConsumerRecord<String, String>> batch =
        traced()
            .transactionalBatch(
                KafkaDedup::identity,
                KafkaDedup::traced,
                (c, fresh) -> {
                  seen.add(Span.current().getSpanContext());
                  for (ConsumerRecord<String, String> r : fresh) {
                    insertEffect(c, KafkaDedup.identity(r).id());
                  }
                });

    assertThat(batch.handle(records).complete()).isTrue();

    SpanData s = OTEL.getSpans().get(0);
    assertThat(OTEL.getSpans()).hasSize(1);
    assertThat(s)
        .hasName("process orders")
        .hasKind(SpanKind.CONSUMER)
        .hasNoParent()
        .hasAttribute(AttributeKey.longKey("messaging.batch.message_count"), 3L);
    assertThat(s.getLinks())
        .extracting(l -> l.getSpanContext().getTraceId())
        .containsExactly(sent.get(0).traceId, sent.get(1).traceId, sent.get(2).traceId);
    assertThat(seen).containsExactly(s.getSpanContext());
  }

  @Test
  void aRocketMqListenerRunsEachMessagesHandlerInASpanParentedToItsTraceparentProperty() {
    Sent sent = new Sent();
    MessageExt m = new MessageExt();
    m.setTopic("orders");
    m.putUserProperty("id", sent.id);
    m.putUserProperty("traceparent", "00-" + sent.traceId + "-" + sent.spanId + "-01");
    m.putUserProperty("tracestate", "vendor=a1");

    assertThat(
            RocketMqDedup.orderly(traced(), (c, msg) -> insertEffect(c, sent.id))
                .consumeMessage(List.of(m), null))
        .isEqualTo(ConsumeOrderlyStatus.SUCCESS);

    SpanData s = OTEL.getSpans().get(0);
    assertThat(OTEL.getSpans()).hasSize(1);
    assertThat(s)
        .hasName("process orders")
        .hasKind(SpanKind.CONSUMER)
        .hasTraceId(sent.traceId)
        .hasParentSpanId(sent.spanId)
        .hasAttribute(AttributeKey.stringKey("messaging.system"), "rocketmq")
        .hasAttribute(MESSAGE_ID, sent.id)
        .hasAttribute(OUTCOME, "processed");
    assertThat(s.getLinks().get(0).getSpanContext().getTraceState().get("vendor")).isEqualTo("a1");
  }

  private static SpanData byParent(List<SpanData> spans, String parentSpanId) {
    return spans.stream()
        .filter(s -> s.getParentSpanId().equals(parentSpanId))
        .findFirst()
        .orElseThrow();
  }

  private static ConsumerRecord<String, String> record(Sent sent) {
    ConsumerRecord<String, String> r = new ConsumerRecord<>("orders", 0, 0L, "order-1", "{}");
    r.headers().add("id", sent.id.getBytes(UTF_8));
    r.headers()
        .add("traceparent", ("00-" + sent.traceId + "-" + sent.spanId + "-01").getBytes(UTF_8));
    return r;
  }

  /** A message as the writer saved it inside a span: its id and that span's context. */
  private static final class Sent {
    final String id = newId();
    final String traceId = id.replace("-", "");
    final String spanId = traceId.substring(0, 16);
  }
}
