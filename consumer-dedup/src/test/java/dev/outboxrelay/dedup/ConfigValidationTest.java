package dev.outboxrelay.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.InvalidMessageException;
import dev.outboxrelay.core.OutboxConfigException;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** Builders fail fast, naming the setting and the bad value; nothing here connects anywhere. */
class ConfigValidationTest {
  private final DedupStore store =
      DedupStore.builder().dataSource(new PGSimpleDataSource()).build();

  @Test
  void storeRejectsBadTableNamesAndBatchSizes() {
    assertThatThrownBy(() -> DedupStore.builder().tableName("dedup; DROP TABLE x"))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessageContaining("tableName must be an identifier")
        .hasMessageContaining("'dedup; DROP TABLE x'");
    assertThatThrownBy(() -> DedupStore.builder().tableName("t".repeat(50)))
        .hasMessageContaining("at most 49 characters");
    assertThatThrownBy(() -> DedupStore.builder().highWaterMarkTableName("1abc"))
        .hasMessageContaining("highWaterMarkTableName must be an identifier");
    assertThatThrownBy(() -> DedupStore.builder().purgeBatchSize(0))
        .hasMessage("purgeBatchSize must be between 1 and 100000, but was 0");
    assertThatThrownBy(() -> DedupStore.builder().build())
        .hasMessage("dataSource is required, but was null");
    assertThatThrownBy(
            () ->
                DedupStore.builder()
                    .dataSource(new PGSimpleDataSource())
                    .tableName("same")
                    .highWaterMarkTableName("SAME")
                    .build())
        .hasMessageContaining("must differ from tableName");
    assertThatThrownBy(() -> store.purge(Duration.ZERO))
        .hasMessage("horizon must be between 1 ns and 36500 days, but was PT0S");
  }

  @Test
  void dedupRejectsMissingOrBadSettings() {
    assertThatThrownBy(() -> Dedup.builder().openTelemetry(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("openTelemetry");
    assertThatThrownBy(() -> Dedup.builder().group("g").build())
        .hasMessage("store is required, but was null");
    assertThatThrownBy(() -> Dedup.builder().store(store).build())
        .hasMessage("group is required, but was null");
    assertThatThrownBy(() -> Dedup.builder().group(" "))
        .hasMessage("group must be 1 to 255 characters, not blank, but was ' '");
    assertThatThrownBy(() -> Dedup.builder().group("g".repeat(256)))
        .isInstanceOf(OutboxConfigException.class);
    assertThatThrownBy(() -> Dedup.builder().maxAttempts(0))
        .hasMessage("maxAttempts must be between 1 and 100, but was 0");
    assertThatThrownBy(() -> Dedup.builder().backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .hasMessageContaining("backoffMax must be between backoffInitial");
    assertThatThrownBy(() -> Dedup.builder().backoff(Duration.ZERO, Duration.ofSeconds(1)))
        .hasMessage("backoffInitial must be positive, but was PT0S");
  }

  @Test
  void kafkaConsumerRefusesAutoCommitAndNeedsAGroup() {
    Properties autoCommit = new Properties();
    autoCommit.put("enable.auto.commit", "true");
    assertThatThrownBy(() -> DedupKafkaConsumer.builder().consumerProperties(autoCommit))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessageStartingWith("enable.auto.commit must be false");
    assertThatThrownBy(() -> DedupKafkaConsumer.builder().topics(List.of()))
        .hasMessageContaining("topics must name at least one topic");
    assertThatThrownBy(() -> DedupKafkaConsumer.builder().pollTimeout(Duration.ofMinutes(2)))
        .hasMessage("pollTimeout must be at most PT1M, but was PT2M");
    assertThatThrownBy(
            () ->
                DedupKafkaConsumer.<String, String>builder()
                    .dedup(Dedup.builder().store(store).group("g").build())
                    .handler((c, r) -> {})
                    .topics(List.of("t"))
                    .consumerProperties(new Properties())
                    .build())
        .hasMessage("group.id is required, but was null");
  }

  @Test
  void kafkaConsumerPollsUpToTheBatchSizeUnlessMaxPollRecordsIsGiven() {
    Properties given = new Properties();
    given.put("group.id", "g");
    assertThat(DedupKafkaConsumer.builder().consumerProperties(given).kafkaProperties())
        .containsEntry("max.poll.records", "1000") // the default batch size
        .containsEntry("enable.auto.commit", "false");
    assertThat(
            DedupKafkaConsumer.builder()
                .consumerProperties(given)
                .batchSize(2000, Duration.ofSeconds(1))
                .kafkaProperties())
        .containsEntry("max.poll.records", "2000");
    given.put("max.poll.records", "300");
    assertThat(
            DedupKafkaConsumer.builder()
                .consumerProperties(given)
                .batchSize(2000, Duration.ofSeconds(1))
                .kafkaProperties())
        .containsEntry("max.poll.records", "300");
  }

  @Test
  void kafkaConsumerChecksTheBatchSettings() {
    assertThatThrownBy(() -> DedupKafkaConsumer.builder().batchSize(0, Duration.ofSeconds(1)))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessage("batchMaxRecords must be between 1 and 10000, but was 0");
    assertThatThrownBy(() -> DedupKafkaConsumer.builder().batchSize(10_001, Duration.ofSeconds(1)))
        .hasMessage("batchMaxRecords must be between 1 and 10000, but was 10001");
    assertThatThrownBy(() -> DedupKafkaConsumer.builder().batchSize(500, Duration.ZERO))
        .hasMessage("batchMaxTime must be positive, but was PT0S");
    assertThatThrownBy(() -> DedupKafkaConsumer.builder().batchSize(500, Duration.ofMinutes(2)))
        .hasMessage("batchMaxTime must be at most PT1M, but was PT2M");
    assertThat(DedupKafkaConsumer.builder().batchSize(1, Duration.ofMillis(1))).isNotNull();
    assertThat(DedupKafkaConsumer.builder().batchSize(10_000, Duration.ofMinutes(1))).isNotNull();
  }

  @Test
  void kafkaConsumerNeedsExactlyOneHandlerAndNoBatchHandlerPerRecord() {
    Dedup dedup = Dedup.builder().store(store).group("g").build();
    DedupHandler<ConsumerRecord<String, String>> handler = (c, r) -> {};
    DedupBatchHandler<ConsumerRecord<String, String>> batchHandler = (c, rs) -> {};
    assertThatThrownBy(() -> kafka(dedup).build())
        .isInstanceOf(OutboxConfigException.class)
        .hasMessage("handler is required (or batchHandler), but was null");
    assertThatThrownBy(() -> kafka(dedup).handler(handler).batchHandler(batchHandler).build())
        .hasMessage("batchHandler cannot be combined with handler");
    assertThatThrownBy(() -> kafka(dedup).perRecord(true).batchHandler(batchHandler).build())
        .hasMessage("perRecord cannot be combined with batchHandler, but was true");
  }

  private static DedupKafkaConsumerBuilder<String, String> kafka(Dedup dedup) {
    Properties group = new Properties();
    group.put("group.id", "g");
    return DedupKafkaConsumer.<String, String>builder()
        .dedup(dedup)
        .topics(List.of("t"))
        .consumerProperties(group);
  }

  @Test
  void rocketMqConcurrentListenerRefusesTheHighWaterMark() {
    Dedup marked = Dedup.builder().store(store).group("g").highWaterMark(true).build();
    Dedup plain = Dedup.builder().store(store).group("g").build();
    assertThatThrownBy(() -> RocketMqDedup.concurrently(marked, (c, m) -> {}))
        .hasMessageStartingWith("highWaterMark must be false for a concurrent listener");
    assertThatThrownBy(() -> RocketMqDedup.concurrently(plain, (c, m) -> {}, 19))
        .hasMessage("delayLevelWhenNextConsume must be between 0 and 18, but was 19");
    assertThat(RocketMqDedup.orderly(marked, (c, m) -> {})).isNotNull();
  }

  @Test
  void idempotencyStoreValidatesSettingsAndKeys() {
    assertThatThrownBy(() -> IdempotencyStore.builder().waitTimeout(Duration.ofSeconds(-1)))
        .hasMessage("waitTimeout must be between PT0S and PT10M, but was PT-1S");
    assertThatThrownBy(() -> IdempotencyStore.builder().processingTimeout(Duration.ZERO))
        .hasMessage("processingTimeout must be positive, but was PT0S");
    assertThatThrownBy(() -> IdempotencyStore.builder().tableName("a-b"))
        .hasMessageContaining("tableName must be an identifier");
    IdempotencyStore keys = IdempotencyStore.builder().dataSource(new PGSimpleDataSource()).build();
    assertThatThrownBy(() -> keys.execute(" ", c -> new byte[0]))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void messageIdentityNeedsAnIdAndANumericSequence() {
    assertThatThrownBy(() -> MessageIdentity.of(null))
        .isInstanceOf(InvalidMessageException.class)
        .hasMessageContaining("id is missing");
    assertThatThrownBy(() -> MessageIdentity.of("x".repeat(65)))
        .hasMessageContaining("at most 64 characters");
    assertThatThrownBy(() -> MessageIdentity.parseSequence("12a"))
        .isInstanceOf(InvalidMessageException.class);
    assertThat(MessageIdentity.parseSequence(" 42 ")).isEqualTo(42L);
    assertThat(new MessageIdentity("id", "k", null).hasSequence()).isFalse();
    assertThat(new MessageIdentity("id", "k", 3L).markApplies()).isFalse();
    assertThat(new MessageIdentity("id", "k", 3L, true).markApplies()).isTrue();
    assertThat(MessageIdentity.parseKeyOrdered("key")).isTrue();
    assertThat(MessageIdentity.parseKeyOrdered(null)).isFalse();
    assertThat(MessageIdentity.parseKeyOrdered("Key")).isFalse();
  }
}
