package dev.outboxrelay.daemon;

import dev.outboxrelay.core.RelayState;
import java.util.List;

/**
 * Turns a relay's {@link RelayState} into readiness problems. Ready phases: {@code ACTIVE} and
 * {@code STANDBY}, for both modes: a CDC relay on standby waits for the source lock, a polling
 * relay on standby owns no key bucket (the fair share gave it none, or its share comes at the next
 * rebalance); each takes work over when another instance goes. A healthy standby is not a failed
 * instance: a readiness probe that said so would stall a rollout and page for a spare.
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
      case STANDBY, ACTIVE -> {}
    }
  }
}
