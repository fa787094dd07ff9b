package dev.outboxrelay.core;

/**
 * A running relay, polling ({@code PollingRelay}) or change-data-capture ({@code CdcRelay}): what
 * an application, a daemon or a test needs to start it, stop it and ask what it is doing.
 * Implementations are thread-safe.
 *
 * <p>Lifecycle: {@link #start()} once; {@link #close()} to stop gracefully; {@link #abort()} to
 * stop as a killed process would. {@link #state()} may be called at any time, from any thread, and
 * never blocks on the relay's work (it reads what the relay already knows).
 */
public interface Relay extends AutoCloseable {

  /** The relay's configured name (log prefix, lock and offset names). */
  String name();

  /**
   * Starts relaying; returns this relay.
   *
   * @throws IllegalStateException if already started
   * @throws OutboxException if the relay cannot start (database unreachable, position lost)
   */
  Relay start();

  /**
   * Stops gracefully: the batch in flight is finished (marked) or left unmarked to be sent again,
   * and what the relay holds (key-bucket leases, the CDC source lock) is released so another
   * instance takes over at once. Waits for that, within the relay's publish timeout. Idempotent.
   */
  @Override
  void close();

  /**
   * Stops as a killed process would: no batch is finished and nothing is released by the relay
   * (leases expire, the source lock's connection is dropped abruptly). For fault tests. Idempotent.
   */
  void abort();

  /** What the relay is doing now: an immutable snapshot, see {@link RelayState}. */
  RelayState state();
}
