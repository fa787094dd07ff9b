package dev.outboxrelay.relay.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The clean stop's decisions, without Debezium: when the reader counts as caught up. */
class StopDrainTest {
  private static final Duration LONG = Duration.ofMinutes(1);

  private static StopDrain drain(int maxQueueSize) {
    Properties p = new Properties();
    p.setProperty("max.queue.size", String.valueOf(maxQueueSize));
    return new StopDrain(p);
  }

  @Test
  void fullBatchesMeanTheReaderStillReadsABacklog() throws Exception {
    StopDrain d = drain(160); // small batches: at most 10 records
    d.touch();
    for (int i = 0; i < 10; i++) {
      d.onBatch(i % 3 == 2 ? 40 : 10); // never three small ones in a row
    }
    assertThat(d.awaitCaughtUp(LONG, Duration.ofMillis(50))).isFalse();
  }

  @Test
  void threeSmallBatchesInARowMeanCaughtUpAndTheThirdWaitsForTheEngine() throws Exception {
    StopDrain d = drain(160);
    d.touch();
    d.onBatch(10);
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
    StopDrain d = drain(8192);
    d.touch();
    long t0 = System.nanoTime();
    assertThat(d.awaitCaughtUp(Duration.ofMillis(100), LONG)).isTrue();
    assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
  }

  @Test
  void releaseLetsAHeldPollingThreadGo() throws Exception {
    StopDrain d = drain(16); // a sixteenth of the queue: batches of at most 1
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
