package dev.outboxrelay.daemon;

import dev.outboxrelay.core.RelayState;
import java.util.List;

/**
 * Turns a relay's {@link RelayState} into readiness problems. Ready phases: {@code ACTIVE}, and
 * {@code STANDBY} for a CDC relay (another instance streams; this one takes over if it goes). A
 * polling relay on standby owns no key bucket: not ready, as before the {@code Relay} type.
 */
final class ReadinessCheck {
  private ReadinessCheck() {}

  /** Adds the relay's problems: a stopped or failed relay's first, a waiting relay's last. */
  static void addProblems(RelayState state, boolean cdc, List<String> problems) {
    String prefix = cdc ? "relay: CDC " : "relay: ";
    switch (state.phase()) {
      case NEW, STOPPING, STOPPED -> problems.add(0, "relay: not started or stopping");
      case FAILED -> problems.add(0, prefix + (cdc ? "failed: " : "") + state.reason());
      case STARTING -> problems.add(prefix + "starting: " + state.reason());
      case STANDBY -> {
        if (!cdc) {
          problems.add("relay: " + state.reason());
        }
      }
      case ACTIVE -> {}
    }
  }
}
