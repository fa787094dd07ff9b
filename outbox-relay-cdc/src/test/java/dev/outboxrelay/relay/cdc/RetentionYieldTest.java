package dev.outboxrelay.relay.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * When the retention thread gives the database to the stream (see {@link Retention}): the decision
 * alone, from the batches the processor reports; no statement runs. The pauses pace the batches as
 * a stream would: a slower machine makes the slow stream slower and the burst's rate stays above
 * the threshold (10,000 rows: under 5,000/s only if they take over 2 s).
 */
class RetentionYieldTest {
  private final Retention retention = new Retention("t", null, null);

  @Test
  void aBurstAfterAQuietSpellIsBusyFromItsFirstBatches() throws Exception {
    retention.streamed(System.currentTimeMillis(), 1); // a lone row, as before a burst
    Thread.sleep(700); // quiet for longer than a rate window
    for (int i = 0; i < 5; i++) {
      retention.streamed(System.currentTimeMillis(), 2_000);
      Thread.sleep(20); // Debezium's poll interval
    }
    // Before: the window that ended with the burst's first batch counted it with the quiet
    // (2,001 rows in 700 ms, under 5,000/s), and the next one ended only 500 ms later.
    assertThat(retention.yieldToStream()).as("yields to a burst of 10,000 rows").isTrue();
  }

  @Test
  void aSlowStreamKeepsItsRetention() throws Exception {
    for (int i = 0; i < 10; i++) {
      retention.streamed(System.currentTimeMillis(), 10);
      Thread.sleep(20); // 500 rows/s at most
    }
    assertThat(retention.yieldToStream()).isFalse();
  }

  @Test
  void aQuietSpellEndsTheYield() throws Exception {
    for (int i = 0; i < 5; i++) {
      retention.streamed(System.currentTimeMillis(), 2_000);
      Thread.sleep(20);
    }
    assertThat(retention.yieldToStream()).isTrue();
    Thread.sleep(700);
    retention.streamed(System.currentTimeMillis(), 10); // a slow stream again
    assertThat(retention.yieldToStream()).as("a quiet spell was not busy").isFalse();
  }
}
