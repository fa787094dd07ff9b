package dev.outboxrelay.relay.engine;

import static dev.outboxrelay.core.RelayState.Phase.ACTIVE;
import static dev.outboxrelay.core.RelayState.Phase.FAILED;
import static dev.outboxrelay.core.RelayState.Phase.NEW;
import static dev.outboxrelay.core.RelayState.Phase.STANDBY;
import static dev.outboxrelay.core.RelayState.Phase.STARTING;
import static dev.outboxrelay.core.RelayState.Phase.STOPPED;
import static dev.outboxrelay.core.RelayState.Phase.STOPPING;

import dev.outboxrelay.core.RelayState.Phase;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * A relay's life as one state machine: the phase it is in, why, and the only moves allowed from
 * each phase. Both relays keep their lifecycle here, and their {@code state()} reports it (a relay
 * may refine {@code ACTIVE} with what it observes, such as a silent CDC engine).
 *
 * <pre>
 * NEW      -> STARTING | STANDBY | FAILED | STOPPING
 * STARTING -> ACTIVE | STANDBY | FAILED | STOPPING
 * STANDBY  -> STARTING | ACTIVE | FAILED | STOPPING
 * ACTIVE   -> STARTING | STANDBY | FAILED | STOPPING
 * FAILED   -> STARTING | STANDBY | ACTIVE | STOPPING
 * STOPPING -> STOPPED
 * STOPPED  -> (none)
 * </pre>
 *
 * A relay that stops itself for good ({@link #halt}: a lost position, a lost lock) goes on through
 * STOPPING to STOPPED, but reports FAILED with the reason, so that an operator sees why.
 * Thread-safe; {@link #now()} never blocks.
 */
public final class Lifecycle {
  private static final Map<Phase, Set<Phase>> NEXT = new EnumMap<>(Phase.class);

  static {
    NEXT.put(NEW, EnumSet.of(STARTING, STANDBY, FAILED, STOPPING));
    NEXT.put(STARTING, EnumSet.of(ACTIVE, STANDBY, FAILED, STOPPING));
    NEXT.put(STANDBY, EnumSet.of(STARTING, ACTIVE, FAILED, STOPPING));
    NEXT.put(ACTIVE, EnumSet.of(STARTING, STANDBY, FAILED, STOPPING));
    NEXT.put(FAILED, EnumSet.of(STARTING, STANDBY, ACTIVE, STOPPING));
    NEXT.put(STOPPING, EnumSet.of(STOPPED));
    NEXT.put(STOPPED, EnumSet.noneOf(Phase.class));
  }

  /** A phase and its reason (empty when {@code ACTIVE}). */
  public record Now(Phase phase, String reason) {}

  private final String name;
  private volatile Now now = new Now(NEW, "not started");
  private volatile String halted; // why the relay stopped itself for good; null if it did not

  public Lifecycle(String name) {
    this.name = name;
  }

  /**
   * Moves to {@code next}.
   *
   * @throws IllegalStateException if the move is not allowed from the current phase
   */
  public synchronized void moveTo(Phase next, String reason) {
    if (!tryMoveTo(next, reason)) {
      throw new IllegalStateException(
          name + " cannot go from " + now.phase() + " to " + next + " (" + reason + ")");
    }
  }

  /**
   * Moves to {@code next} if that is allowed from the current phase (a late report from another
   * thread after a stop is not); returns whether it moved. Staying in a phase updates its reason.
   */
  public synchronized boolean tryMoveTo(Phase next, String reason) {
    Phase from = now.phase();
    if (from != next && !NEXT.get(from).contains(next)) {
      return false;
    }
    now = new Now(next, reason);
    return true;
  }

  /** Moves from {@code from} to {@code next} only if the relay is in {@code from} now. */
  public synchronized boolean moveFrom(Phase from, Phase next, String reason) {
    return now.phase() == from && tryMoveTo(next, reason);
  }

  /** The relay stops itself for good: it reports FAILED with {@code reason} from now on. */
  public synchronized void halt(String reason) {
    halted = reason;
    tryMoveTo(FAILED, reason);
  }

  /** Whether a stop was asked for or happened, or the relay halted. */
  public boolean stopping() {
    Phase p = now.phase();
    return p == STOPPING || p == STOPPED || halted != null;
  }

  /** The phase to report: FAILED after a halt, else the current phase. */
  public Now now() {
    String h = halted;
    return h == null ? now : new Now(FAILED, h);
  }

  /** The current phase itself, a halted relay's stop included. */
  public Phase phase() {
    return now.phase();
  }
}
