package dev.outboxrelay.servers.internal;

import dev.outboxrelay.servers.ServerStartException;
import java.util.function.Supplier;

/**
 * A server started once per JVM on first use. A failed start is remembered, so later test classes
 * fail at once with the same reason instead of waiting for another timeout. Thread-safe.
 */
public final class SharedServer<T> {
  private final String what;
  private final Supplier<T> start;
  private T server;
  private ServerStartException failure;

  /** {@code what} names the server in messages; {@code start} starts it. */
  public SharedServer(String what, Supplier<T> start) {
    this.what = what;
    this.start = start;
  }

  /**
   * The server, started by this call if it is the first.
   *
   * @throws ServerStartException if it could not start, now or on an earlier call
   */
  public synchronized T get() {
    if (failure != null) {
      throw new ServerStartException("The shared " + what + " failed to start", failure);
    }
    if (server == null) {
      try {
        server = start.get();
      } catch (ServerStartException e) {
        failure = e;
        throw e;
      }
    }
    return server;
  }
}
