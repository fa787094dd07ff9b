package dev.outboxrelay.dedup;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.dedup.internal.MessageSpans;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Run by the {@code without-opentelemetry} failsafe execution, whose classpath has no {@code
 * io.opentelemetry} artifact: the adapters handle traced messages as before, without spans.
 */
class PostgresDedupWithoutOpenTelemetryIT extends DbFixture {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  @Override
  DatabaseServer server() {
    return DB.server();
  }

  @Test
  void opentelemetryIsReallyOffTheClasspath() {
    assertThatThrownBy(() -> Class.forName("io.opentelemetry.api.GlobalOpenTelemetry"))
        .isInstanceOf(ClassNotFoundException.class);
    assertThat(MessageSpans.OPENTELEMETRY).isFalse();
  }

  @Test
  void kafkaRecordsWithATraceparentAreHandledOncePerRecordAndInBatches() throws Exception {
    Dedup dedup = dedup("billing");
    DedupHandler<ConsumerRecord<String, String>> effect =
        (c, r) -> insertEffect(c, KafkaDedup.identity(r).id());
    ConsumerRecord<String, String> one = record(newId());
    ConsumerRecord<String, String> two = record(newId());

    assertThat(KafkaDedup.recordHandler(dedup, effect).handle(one)).isEqualTo(Outcome.PROCESSED);
    BatchOutcome batch =
        dedup
            .transactionalBatch(
                KafkaDedup::identity, KafkaDedup::traced, DedupBatchHandler.each(effect))
            .handle(List.of(one, two));

    assertThat(batch.outcomes()).containsExactly(Outcome.DUPLICATE, Outcome.PROCESSED);
    assertThat(distinctEffects()).isEqualTo(2);
    assertThat(effects()).isEqualTo(2);
  }

  @Test
  void rocketMqMessagesWithATraceparentAreHandled() throws Exception {
    MessageExt m = new MessageExt();
    m.setTopic("orders");
    String id = newId();
    m.putUserProperty("id", id);
    m.putUserProperty("traceparent", TRACEPARENT);

    ConsumeOrderlyStatus status =
        RocketMqDedup.orderly(dedup("billing"), (c, msg) -> insertEffect(c, id))
            .consumeMessage(List.of(m), null);

    assertThat(status).isEqualTo(ConsumeOrderlyStatus.SUCCESS);
    assertThat(effects(id)).isEqualTo(1);
  }

  private static ConsumerRecord<String, String> record(String id) {
    ConsumerRecord<String, String> r = new ConsumerRecord<>("orders", 0, 0L, "order-1", "{}");
    r.headers().add("id", id.getBytes(UTF_8));
    r.headers().add("traceparent", TRACEPARENT.getBytes(UTF_8));
    return r;
  }
}
