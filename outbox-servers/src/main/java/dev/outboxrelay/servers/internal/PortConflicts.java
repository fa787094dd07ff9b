package dev.outboxrelay.servers.internal;

import dev.outboxrelay.servers.ServerStartException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a server again on other ports when it could not bind the ones chosen for it.
 *
 * <p>A port is chosen free a moment before the server binds it, so another process on the machine
 * can take it in between (CI saw RocketMQ's broker exit with "Address already in use"). Only that
 * failure is retried, with new ports; any other start failure is thrown at once.
 */
public final class PortConflicts {
  private static final Logger LOG = LoggerFactory.getLogger(PortConflicts.class);
  private static final int ATTEMPTS = 3;

  private PortConflicts() {}

  /**
   * Calls {@code start} (which must choose new ports each call) up to three times while it fails
   * because a port was in use.
   *
   * @throws ServerStartException the last attempt's failure, or the first failure of another kind
   */
  public static <T> T retry(String what, Supplier<T> start) {
    for (int attempt = 1; ; attempt++) {
      try {
        return start.get();
      } catch (ServerStartException e) {
        if (attempt == ATTEMPTS || !isPortInUse(e)) {
          throw e;
        }
        LOG.warn(
            "{} could not bind a port chosen for it (attempt {} of {}); starting it on other ports",
            what,
            attempt,
            ATTEMPTS);
      }
    }
  }

  /** Whether the failure, or one of its causes, says a port was already in use. */
  static boolean isPortInUse(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String message = t.getMessage();
      if (t instanceof java.net.BindException
          || (message != null && message.contains("Address already in use"))) {
        return true;
      }
    }
    return false;
  }
}
