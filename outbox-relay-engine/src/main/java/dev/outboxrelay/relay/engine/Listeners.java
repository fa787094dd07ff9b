package dev.outboxrelay.relay.engine;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls into a user's {@link dev.outboxrelay.core.RelayListener}: a listener that throws is logged
 * and never stops or fails a relay.
 */
public final class Listeners {
  private static final Logger log = LoggerFactory.getLogger(Listeners.class);

  private Listeners() {}

  /** Runs the callback; a {@link RuntimeException} from it is logged with the relay's name. */
  public static void safely(String relay, Runnable callback) {
    try {
      callback.run();
    } catch (RuntimeException e) {
      log.warn("{} - relay listener threw {}", relay, e.toString());
    }
  }
}
