package dev.outboxrelay.testing;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads a Kafka topic from the beginning to its current end, with a real consumer. */
public final class KafkaTopicReader implements BrokerReader {
  private final KafkaConsumer<byte[], byte[]> consumer;

  public KafkaTopicReader(String bootstrapServers) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  @Override
  public synchronized List<ReceivedMessage> readAll(String topic) {
    List<TopicPartition> partitions =
        consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
            .map(info -> new TopicPartition(topic, info.partition()))
            .toList();
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(10));
    List<ReceivedMessage> messages = new ArrayList<>();
    while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
        messages.add(received(r));
      }
    }
    return messages;
  }

  private static ReceivedMessage received(ConsumerRecord<byte[], byte[]> r) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (Header h : r.headers()) {
      headers.put(h.key(), new String(h.value(), StandardCharsets.UTF_8));
    }
    String key = r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
    return new ReceivedMessage(
        r.topic(), key, headers, r.value(), r.partition() + "@" + r.offset());
  }

  @Override
  public void close() {
    consumer.close();
  }
}
