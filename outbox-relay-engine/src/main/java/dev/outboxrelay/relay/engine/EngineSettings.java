package dev.outboxrelay.relay.engine;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.RelayListener;
import java.time.Duration;
import java.util.function.Function;

/**
 * What the engine needs from a relay's validated settings, whichever row source it is: each relay's
 * config implements it, so the engine's parts are built the same way for both.
 */
public interface EngineSettings {
  /** The relay's name, in log lines and thread names. */
  String name();

  Publisher publisher();

  /** The longest a published round waits for its acknowledgements. */
  Duration publishTimeout();

  /** Attempt number (from 1) to delay in milliseconds: {@link KeyBackoffs#exponential}. */
  Function<Integer, Long> backoff();

  RelayListener listener();

  Ticker ticker();
}
