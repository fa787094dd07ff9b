package dev.outboxrelay.it.hwm;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.dedup.Dedup;
import dev.outboxrelay.dedup.DedupKafkaConsumer;
import dev.outboxrelay.dedup.KafkaDedup;
import dev.outboxrelay.publisher.kafka.KafkaPublisher;
import dev.outboxrelay.testing.KafkaExtension;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The high-water-mark contract over Kafka: a relay, KafkaPublisher and a DedupKafkaConsumer in
 * batch mode (its default: the marks of a polled batch are read and advanced in one transaction),
 * or one transaction per record where a subclass says {@link #perRecord()}.
 */
abstract class KafkaHighWaterMarkContract extends HighWaterMarkContract {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  abstract Relay startRelay(DataSource ds, Publisher publisher);

  /** Whether the consumer runs one transaction per record instead of one per batch. */
  boolean perRecord() {
    return false;
  }

  @Override
  void startRelayAndConsumer(Dedup dedup) {
    String prefix = "hwm-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    KAFKA.server().createTopic(prefix + "order", 3);
    Publisher publisher =
        KafkaPublisher.builder()
            .producerProperty("bootstrap.servers", KAFKA.server().bootstrapServers())
            .topicTemplate(TopicTemplate.of(prefix + TopicTemplate.PLACEHOLDER))
            .build();
    closeables.add(publisher);
    Relay relay = startRelay(dataSource, publisher);
    closeables.add(relay::close);
    DedupKafkaConsumer<String, String> consumer =
        DedupKafkaConsumer.<String, String>builder()
            .dedup(dedup)
            .topics(List.of(prefix + "order"))
            .consumerProperties(consumerProperties(prefix))
            .pollTimeout(Duration.ofMillis(100))
            .perRecord(perRecord())
            .handler((c, r) -> Inversions.effect(c, KafkaDedup.identity(r).id()))
            .build()
            .start();
    closeables.add(consumer::close);
  }

  private static Properties consumerProperties(String group) {
    Properties p = new Properties();
    p.put("bootstrap.servers", KAFKA.server().bootstrapServers());
    p.put("group.id", group);
    p.put("auto.offset.reset", "earliest");
    p.put("enable.auto.commit", "false");
    p.put("key.deserializer", StringDeserializer.class.getName());
    p.put("value.deserializer", StringDeserializer.class.getName());
    return p;
  }
}
