package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.RelayState;
import dev.outboxrelay.core.RelayState.Phase;
import dev.outboxrelay.relay.engine.Lifecycle;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A {@link CdcRelay}'s {@link RelayState}: its lifecycle's phase, with the stream's counts, and an
 * ACTIVE stream reported FAILED while it publishes without storing its position or while its engine
 * hands over nothing at all.
 */
final class CdcState {
  private CdcState() {}

  static RelayState of(Lifecycle.Now now, CdcStream stream) {
    CdcProcessor p = stream == null ? null : stream.processor();
    if (p == null || now.phase() == Phase.STOPPED || now.phase() == Phase.NEW) {
      return RelayState.of(now.phase(), now.reason());
    }
    int retrying = p.retryingKeys();
    OptionalInt parked = OptionalInt.of(p.parkedKeys());
    if (now.phase() != Phase.ACTIVE) {
      return state(now.phase(), now.reason(), retrying, parked);
    }
    String saveFailure = p.saveFailure();
    if (saveFailure != null) {
      // Publishing, but the position stands still: a PostgreSQL slot keeps its WAL, a binlog may
      // be purged past it (lost at the next start). Not healthy, though rows move.
      return state(Phase.FAILED, "cannot store its position: " + saveFailure, retrying, parked);
    }
    Optional<Duration> silent = p.silence().beyondLimit();
    if (silent.isPresent()) {
      // The engine has not failed, yet its reader hands over nothing, not even heartbeats.
      return state(Phase.FAILED, silence(silent.get(), p), retrying, parked);
    }
    return state(Phase.ACTIVE, "", retrying, parked);
  }

  /** The reason a silent engine's state gives (and the relay's log). */
  static String silence(Duration silent, CdcProcessor p) {
    return "the engine has handed over nothing, heartbeats included, for "
        + silent.toSeconds()
        + " s (limit "
        + p.silence().limit().map(Duration::toSeconds).orElse(0L)
        + " s): its reader is stuck or its connection dead; the log has the engine's last"
        + " warnings";
  }

  private static RelayState state(Phase phase, String reason, int retrying, OptionalInt parked) {
    return new RelayState(phase, reason, OptionalInt.empty(), retrying, parked);
  }
}
