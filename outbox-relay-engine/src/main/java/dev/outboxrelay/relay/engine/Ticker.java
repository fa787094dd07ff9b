package dev.outboxrelay.relay.engine;

/**
 * The relay engine's clock for elapsed time, in nanoseconds from an arbitrary origin (compare two
 * readings by their difference, as with {@link System#nanoTime()}). Every time window of the engine
 * and of both row sources (backoffs, purge and sweep intervals, yields) is measured with one, so
 * that a test moves time forward instead of sleeping through it.
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
