package dev.outboxrelay.relay.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * When the retention thread gives the database to the stream (see {@link LoggedMarks}): the
 * decision alone, from the batches the processor reports; no statement runs. The test moves the
 * relay's ticker and wall clock as a stream's batches would arrive, so the windows are exact.
 */
class LoggedMarksYieldTest {
  private final AtomicLong nanos = new AtomicLong(Duration.ofHours(1).toNanos());
  private final Instant start = Instant.parse("2026-01-01T00:00:00Z");
  private final LoggedMarks marks =
      new LoggedMarks("t", null, null, nanos::get, new MovingClock(nanos, start));

  @Test
  void aBurstAfterAQuietSpellIsBusyFromItsFirstBatches() {
    marks.streamed(now(), 1); // a lone row, as before a burst
    advance(700); // quiet for longer than a rate window
    for (int i = 0; i < 5; i++) {
      marks.streamed(now(), 2_000);
      advance(20); // Debezium's poll interval
    }
    // Counted with the quiet spell, the burst's first window would read 2,001 rows in 700 ms,
    // under 5,000/s, and the next window would end only 500 ms later.
    assertThat(marks.yieldToStream()).as("yields to a burst of 10,000 rows").isTrue();
  }

  @Test
  void aSlowStreamKeepsItsRetention() {
    for (int i = 0; i < 10; i++) {
      marks.streamed(now(), 10);
      advance(20); // 500 rows/s
    }
    assertThat(marks.yieldToStream()).isFalse();
  }

  @Test
  void aQuietSpellEndsTheYield() {
    for (int i = 0; i < 5; i++) {
      marks.streamed(now(), 2_000);
      advance(20);
    }
    assertThat(marks.yieldToStream()).isTrue();
    advance(700);
    marks.streamed(now(), 10); // a slow stream again
    assertThat(marks.yieldToStream()).as("a quiet spell was not busy").isFalse();
  }

  @Test
  void aBusyStreamGetsItsRetentionBackAfterTheLongestYield() {
    for (int i = 0; i < 5; i++) {
      marks.streamed(now(), 2_000);
      advance(20);
    }
    assertThat(marks.yieldToStream()).isTrue();
    long steps = LoggedMarks.MAX_YIELD.toMillis() / 20;
    for (long i = 0; i < steps; i++) {
      marks.streamed(now(), 2_000);
      advance(20);
    }
    assertThat(marks.yieldToStream()).as("yielded for %s already", LoggedMarks.MAX_YIELD).isFalse();
  }

  @Test
  void aStreamBehindItsSourceGetsTheRightOfWay() {
    marks.streamed(now() - LoggedMarks.BEHIND.toMillis() - 1_000, 10); // a change 3 s old
    assertThat(marks.yieldToStream()).isTrue();
    advance(LoggedMarks.BEHIND.toMillis()); // no batch since: the stream is not streaming
    assertThat(marks.yieldToStream()).isFalse();
  }

  private long now() {
    return start.toEpochMilli() + Duration.ofNanos(nanos.get()).toMillis() - 3_600_000;
  }

  private void advance(long millis) {
    nanos.addAndGet(Duration.ofMillis(millis).toNanos());
  }

  /** A wall clock that moves with the ticker. */
  private static final class MovingClock extends Clock {
    private final AtomicLong nanos;
    private final Instant origin;
    private final long originNanos;

    MovingClock(AtomicLong nanos, Instant origin) {
      this.nanos = nanos;
      this.origin = origin;
      this.originNanos = nanos.get();
    }

    @Override
    public Instant instant() {
      return origin.plusNanos(nanos.get() - originNanos);
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      throw new UnsupportedOperationException();
    }
  }
}
