package dev.outboxrelay.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.servers.KafkaServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class KafkaServerIT {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  @Test
  void recordRoundTripsThroughTheSharedBroker() throws Exception {
    String topic = "smoke-" + UUID.randomUUID();
    KAFKA.server().createTopic(topic, 3);

    send(KAFKA.server(), topic);

    assertReceived(KAFKA.server(), topic);
  }

  @Test
  void privateBrokerRestartsOnTheSamePortWithItsData() throws Exception {
    KafkaServer kafka = KafkaServer.start();
    try {
      String topic = "restart-" + UUID.randomUUID();
      kafka.createTopic(topic, 1);
      send(kafka, topic);

      kafka.kill();
      assertThat(kafka.isRunning()).isFalse();
      kafka.restart();

      assertThat(kafka.isRunning()).isTrue();
      assertReceived(kafka, topic);
    } finally {
      kafka.stop();
    }
  }

  private static void send(KafkaServer kafka, String topic) throws Exception {
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            kafka.bootstrapServers(),
            ProducerConfig.ACKS_CONFIG,
            "all");
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
      ProducerRecord<String, String> record =
          new ProducerRecord<>(
              topic, null, "key-1", "value-1", List.of(new RecordHeader("h", "v".getBytes(UTF_8))));
      producer.send(record).get(30, TimeUnit.SECONDS);
    }
  }

  private static void assertReceived(KafkaServer kafka, String topic) {
    Map<String, Object> config =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            kafka.bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG,
            "smoke-" + UUID.randomUUID(),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest");
    List<ConsumerRecord<String, String>> received = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
      consumer.subscribe(List.of(topic));
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> {
                consumer.poll(Duration.ofMillis(200)).forEach(received::add);
                return !received.isEmpty();
              });
    }
    assertThat(received).hasSize(1);
    ConsumerRecord<String, String> record = received.get(0);
    assertThat(record.key()).isEqualTo("key-1");
    assertThat(record.value()).isEqualTo("value-1");
    assertThat(new String(record.headers().lastHeader("h").value(), UTF_8)).isEqualTo("v");
  }
}
