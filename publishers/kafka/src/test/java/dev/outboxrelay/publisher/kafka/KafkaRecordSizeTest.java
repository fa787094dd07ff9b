package dev.outboxrelay.publisher.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.MessageLimits;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.testing.LargestMessage;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.record.AbstractRecords;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.RecordBatch;
import org.junit.jupiter.api.Test;

/**
 * The arithmetic behind {@link MessageLimits}, with the size the producer itself checks against
 * {@code max.request.size} before sending (its upper-bound estimate of the record in a batch).
 */
class KafkaRecordSizeTest {

  @Test
  void theLargestMessageTheWriterAcceptsFitsTheDefaultMaxRequestSize() {
    OutboxMessage largest = LargestMessage.asWritten("order");
    int size = producerSize(largest);
    int defaultMaxRequestSize =
        (Integer)
            ProducerConfig.configDef().defaultValues().get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
    assertThat(defaultMaxRequestSize).isEqualTo(MessageLimits.SMALLEST_DEFAULT_REQUEST_BYTES);
    assertThat(size).isLessThanOrEqualTo(defaultMaxRequestSize);
    // Everything but the payload: 18,095 here, the writer's seq-order marker included (14 bytes);
    // aggregatetype "order" is short to keep a valid topic, 765 bytes would add 761; MessageLimits'
    // Javadoc bounds it at 18,938.
    assertThat(size - largest.payloadSize()).isEqualTo(18_095);
  }

  private static int producerSize(OutboxMessage m) {
    ProducerRecord<byte[], byte[]> r;
    try (KafkaPublisher p =
        new KafkaPublisher(MockProducer::new, TopicTemplate.defaultTemplate())) {
      r = p.record(m);
    }
    return AbstractRecords.estimateSizeInBytesUpperBound(
        RecordBatch.CURRENT_MAGIC_VALUE,
        CompressionType.NONE,
        r.key(),
        r.value(),
        r.headers().toArray());
  }
}
