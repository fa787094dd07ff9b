package dev.outboxrelay.relay.cdc.internal.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.OutboxTable;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The clean stop's decisions, without Debezium: when the reader counts as caught up. The drain is
 * built from the engine's settings as {@link EngineProperties} makes them, with the relay's default
 * batchSize (CdcConfigTest checks that default).
 */
class StopDrainTest {
  private static final Duration LONG = Duration.ofMinutes(1);

  /** The relay's defaults: batchSize 2048 (Debezium's max.batch.size), max.queue.size 8192. */
  private static StopDrain drain() {
    String url = "jdbc:postgresql://db/shop";
    Properties p =
        EngineProperties.of(
            new EngineProperties.Inputs(
                "cdc",
                "cdc",
                url,
                "cdc",
                "s3cret",
                SourceDatabase.parse(url),
                OutboxTable.defaults(),
                Duration.ofMillis(20),
                2048,
                new Properties()));
    assertThat(p).containsEntry("max.batch.size", "2048").containsEntry("max.queue.size", "8192");
    return new StopDrain(p);
  }

  @Test
  void fullBatchesMeanTheReaderStillReadsABacklog() throws Exception {
    StopDrain d = drain();
    d.touch();
    for (int i = 0; i < 10; i++) {
      d.onBatch(2048); // a queue with a backlog hands over full batches
    }
    assertThat(d.awaitCaughtUp(LONG, Duration.ofMillis(50))).isFalse();
  }

  @Test
  void batchesOfAQuarterOrMoreNeverCountAsSmall() throws Exception {
    StopDrain d = drain();
    d.touch();
    for (int i = 0; i < 10; i++) {
      d.onBatch(i % 3 == 2 ? 512 : 10); // never three under a quarter of 2048 in a row
    }
    assertThat(d.awaitCaughtUp(LONG, Duration.ofMillis(50))).isFalse();
  }

  @Test
  void threeSmallBatchesInARowMeanCaughtUpAndTheThirdWaitsForTheEngine() throws Exception {
    StopDrain d = drain();
    d.touch();
    d.onBatch(511);
    d.onBatch(3);
    Thread polling = new Thread(() -> d.onBatch(0));
    polling.start();
    assertThat(d.awaitCaughtUp(LONG, LONG)).isTrue();
    polling.join(200);
    assertThat(polling.isAlive()).as("held outside Debezium's record processing").isTrue();
    polling.interrupt(); // what the engine's close() does to its polling thread
    polling.join(TimeUnit.SECONDS.toMillis(10));
    assertThat(polling.isAlive()).isFalse();
  }

  @Test
  void noBatchForTheQuietPeriodMeansCaughtUp() throws Exception {
    StopDrain d = drain();
    d.touch();
    long t0 = System.nanoTime();
    assertThat(d.awaitCaughtUp(Duration.ofMillis(100), LONG)).isTrue();
    assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
  }

  @Test
  void releaseLetsAHeldPollingThreadGo() throws Exception {
    StopDrain d = drain();
    for (int i = 0; i < 2; i++) {
      d.onBatch(1);
    }
    Thread polling = new Thread(() -> d.onBatch(1));
    polling.start();
    d.release();
    polling.join(TimeUnit.SECONDS.toMillis(10));
    assertThat(polling.isAlive()).isFalse();
  }
}
