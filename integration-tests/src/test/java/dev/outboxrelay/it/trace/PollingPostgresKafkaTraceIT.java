package dev.outboxrelay.it.trace;

import static io.opentelemetry.sdk.testing.assertj.OpenTelemetryAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.dedup.Dedup;
import dev.outboxrelay.dedup.DedupKafkaConsumer;
import dev.outboxrelay.dedup.DedupStore;
import dev.outboxrelay.dedup.KafkaDedup;
import dev.outboxrelay.it.KafkaDbFixture;
import dev.outboxrelay.it.Relays;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.ReceivedMessage;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Trace context end to end: a span around {@code outbox.save} in a PostgreSQL transaction, the
 * polling relay, Kafka, a {@link DedupKafkaConsumer} whose handler runs in a consumer span of the
 * writer's trace. Spans are collected by the SDK's in-memory exporter.
 */
class PollingPostgresKafkaTraceIT extends KafkaDbFixture {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();
  @RegisterExtension static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

  static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");

  private final Map<String, SpanContext> handlerSpans = new ConcurrentHashMap<>();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }

  @Test
  void theConsumersHandlerSpanContinuesTheTraceOfTheSpanAroundSave() throws Exception {
    // The request that saves the order came with a trace state of its own (an upstream vendor's).
    SpanContext upstream =
        SpanContext.createFromRemoteParent(
            "4bf92f3577b34da6a3ce929d0e0e4736",
            "00f067aa0ba902b7",
            TraceFlags.getSampled(),
            TraceState.builder().put("vendor", "a1").build());
    Span writer =
        OTEL.getOpenTelemetry()
            .getTracer("orders")
            .spanBuilder("place order")
            .setParent(Context.root().with(Span.wrap(upstream)))
            .startSpan();
    OutboxMessage traced = message("o-1");
    OutboxMessage untraced = message("o-2");
    try (Connection c = dataSource.getConnection();
        Scope ignored = writer.makeCurrent()) {
      c.setAutoCommit(false);
      outbox.save(c, traced);
      c.commit();
    } finally {
      writer.end();
    }
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      outbox.save(c, untraced); // no current span: no trace context
      c.commit();
    }

    closeables.add(Relays.polling("trace", dataSource, kafka())::close);
    startConsumer();
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> handlerSpans.size() == 2 && consumerSpan(untraced) != null);

    String writerTraceparent =
        "00-"
            + writer.getSpanContext().getTraceId()
            + "-"
            + writer.getSpanContext().getSpanId()
            + "-01";
    ReceivedMessage onKafka =
        received().stream().filter(r -> r.id().equals(traced.id())).findFirst().orElseThrow();
    assertThat(onKafka.headers())
        .containsEntry("traceparent", writerTraceparent)
        .containsEntry("tracestate", "vendor=a1");

    SpanData consumer = consumerSpan(traced);
    assertThat(consumer)
        .hasName("process " + topic)
        .hasKind(SpanKind.CONSUMER)
        .hasTraceId(writer.getSpanContext().getTraceId())
        .hasParentSpanId(writer.getSpanContext().getSpanId())
        .hasAttribute(AttributeKey.stringKey("messaging.system"), "kafka")
        .hasAttribute(AttributeKey.stringKey("messaging.destination.name"), topic)
        .hasAttribute(AttributeKey.stringKey("outbox.dedup.outcome"), "processed");
    assertThat(consumer.getLinks())
        .singleElement()
        .satisfies(
            link -> {
              assertThat(link.getSpanContext().getSpanId())
                  .isEqualTo(writer.getSpanContext().getSpanId());
              assertThat(link.getSpanContext().getTraceState().get("vendor")).isEqualTo("a1");
            });
    assertThat(handlerSpans.get(traced.id().toString())).isEqualTo(consumer.getSpanContext());

    SpanData root = consumerSpan(untraced);
    assertThat(root.getTraceId()).isNotEqualTo(writer.getSpanContext().getTraceId());
    assertThat(root).hasNoParent();
    assertThat(root.getLinks()).isEmpty();
  }

  private void startConsumer() throws Exception {
    DedupStore store = DedupStore.builder().dataSource(dataSource).build();
    store.createIfMissing();
    Dedup dedup =
        Dedup.builder()
            .store(store)
            .group("billing")
            .openTelemetry(OTEL.getOpenTelemetry())
            .build();
    Properties p = new Properties();
    p.put("bootstrap.servers", KAFKA.server().bootstrapServers());
    p.put("group.id", "billing-" + topic);
    p.put("auto.offset.reset", "earliest");
    p.put("key.deserializer", StringDeserializer.class.getName());
    p.put("value.deserializer", StringDeserializer.class.getName());
    DedupKafkaConsumer<String, String> consumer =
        DedupKafkaConsumer.<String, String>builder()
            .dedup(dedup)
            .topics(List.of(topic))
            .consumerProperties(p)
            .pollTimeout(Duration.ofMillis(100))
            .handler(
                (c, r) ->
                    handlerSpans.put(KafkaDedup.identity(r).id(), Span.current().getSpanContext()))
            .build()
            .start();
    closeables.add(consumer::close);
  }

  private static SpanData consumerSpan(OutboxMessage m) {
    return OTEL.getSpans().stream()
        .filter(s -> s.getKind() == SpanKind.CONSUMER)
        .filter(s -> m.id().toString().equals(s.getAttributes().get(MESSAGE_ID)))
        .findFirst()
        .orElse(null);
  }

  private static OutboxMessage message(String key) {
    return OutboxMessage.builder()
        .aggregateType("order")
        .aggregateId(key)
        .type("OrderPlaced")
        .payload("{\"order\":\"" + key + "\"}")
        .build();
  }
}
