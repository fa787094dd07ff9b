package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.RelayState;
import dev.outboxrelay.core.RelayState.Phase;
import java.util.OptionalInt;

/** Derives a {@link CdcRelay}'s {@link RelayState} from what the relay and its processor know. */
final class CdcState {
  private CdcState() {}

  static RelayState of(CdcRelay relay) {
    CdcProcessor p = relay.processor();
    int retrying = p == null ? 0 : p.retryingKeys();
    OptionalInt parked = p == null ? OptionalInt.empty() : OptionalInt.of(p.parkedKeys());
    String failure = relay.failure();
    if (failure != null) {
      return state(Phase.FAILED, failure, retrying, parked);
    }
    if (relay.closed()) {
      return RelayState.of(Phase.STOPPED, "stopped");
    }
    if (relay.stopping()) {
      return state(Phase.STOPPING, "stopping", retrying, parked);
    }
    if (!relay.started()) {
      return RelayState.of(Phase.NEW, "not started");
    }
    if (relay.standingBy()) {
      return RelayState.of(Phase.STANDBY, "another instance holds the source lock");
    }
    if (p == null) {
      return RelayState.of(Phase.STARTING, "taking the source lock, checking the stored position");
    }
    String engineFailure = relay.engineFailure();
    if (engineFailure != null) {
      return state(Phase.FAILED, engineFailure, retrying, parked);
    }
    String saveFailure = p.saveFailure();
    if (saveFailure != null) {
      // Publishing, but the position stands still: a PostgreSQL slot keeps its WAL, a binlog may
      // be purged past it (lost at the next start). Not healthy, though rows move.
      return state(Phase.FAILED, "cannot store its position: " + saveFailure, retrying, parked);
    }
    if (!p.established()) {
      return state(Phase.STARTING, "establishing the stream position", retrying, parked);
    }
    if (!p.running()) {
      // Restarted after a failure: not ACTIVE until the engine proves it runs again.
      return state(Phase.STARTING, "restarting the engine", retrying, parked);
    }
    java.util.Optional<java.time.Duration> silent = p.silentBeyondLimit();
    if (silent.isPresent()) {
      // The engine has not failed, yet its reader hands over nothing, not even heartbeats.
      return state(Phase.FAILED, silence(silent.get(), p), retrying, parked);
    }
    return state(Phase.ACTIVE, "", retrying, parked);
  }

  /** The reason a silent engine's state gives (and the relay's log). */
  static String silence(java.time.Duration silent, CdcProcessor p) {
    return "the engine has handed over nothing, heartbeats included, for "
        + silent.toSeconds()
        + " s (limit "
        + p.silenceLimit().map(java.time.Duration::toSeconds).orElse(0L)
        + " s): its reader is stuck or its connection dead; the log has the engine's last"
        + " warnings";
  }

  private static RelayState state(Phase phase, String reason, int retrying, OptionalInt parked) {
    return new RelayState(phase, reason, OptionalInt.empty(), retrying, parked);
  }
}
