package dev.outboxrelay.relay.engine;

/**
 * The relay engine's clock for elapsed time, in nanoseconds from an arbitrary origin (compare two
 * readings by their difference, as with {@link System#nanoTime()}). Every time window of the engine
 * and of both row sources (backoffs, purge and sweep intervals, yields, mark delays, rebalances,
 * engine restarts and silences) is measured with one, so that a test moves time forward instead of
 * sleeping through it. Real waits keep the system's clock: a publish timeout or a latency (a
 * client's future), a lock or a condition waited for, and the lease's local expiry (a safety margin
 * against the database's clock, which no test ticker may stretch).
 */
@FunctionalInterface
public interface Ticker {

  /** Nanoseconds from this ticker's origin. */
  long read();

  /** {@link System#nanoTime()}. */
  static Ticker system() {
    return System::nanoTime;
  }
}
