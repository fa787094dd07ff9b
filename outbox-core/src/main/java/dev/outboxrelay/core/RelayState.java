package dev.outboxrelay.core;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * A snapshot of what a {@link Relay} is doing, derived from the relay's own state (never from a
 * "started" flag alone). Immutable.
 *
 * @param phase where the relay is in its life; see {@link Phase}
 * @param reason why the relay is not {@link Phase#ACTIVE}, in a few words (secrets masked); empty
 *     when active
 * @param ownedBuckets key buckets whose lease the relay holds (polling relay); empty for a relay
 *     without buckets (CDC)
 * @param retryingKeys keys the relay holds back after a transient publish failure, until their
 *     backoff is over
 * @param parkedKeys keys the relay knows to be parked (an operator must act); empty when the relay
 *     does not track them in memory (polling: they are only in the table, see {@code
 *     OutboxAdmin.parked()})
 */
public record RelayState(
    Phase phase,
    String reason,
    OptionalInt ownedBuckets,
    int retryingKeys,
    OptionalInt parkedKeys) {

  /** Where a relay is in its life. */
  public enum Phase {
    /** Built, not started. */
    NEW,
    /** Started, not relaying yet: taking leases or the source lock, establishing the stream. */
    STARTING,
    /** Relaying: the polling relay owns key buckets, the CDC relay streams. */
    ACTIVE,
    /**
     * Running but with nothing to relay: the polling relay owns no key bucket (other instances hold
     * them all), the CDC relay waits for the source lock another instance holds.
     */
    STANDBY,
    /**
     * Not relaying because of a failure, named in the reason, or relaying without recording its
     * progress (a CDC relay whose position cannot be stored: a PostgreSQL slot keeps its WAL, a
     * binlog may be purged past the position). Some recover by themselves (the polling relay
     * retrying after a database error, the CDC engine restarting after a backoff, a silent CDC
     * reader handing over events again, a position stored again), others need the operator (a lost
     * CDC position, a dead worker thread, a missing privilege).
     */
    FAILED,
    /** {@link Relay#close()} or {@link Relay#abort()} was called and has not finished yet. */
    STOPPING,
    /** Stopped. */
    STOPPED
  }

  public RelayState {
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(ownedBuckets, "ownedBuckets");
    Objects.requireNonNull(parkedKeys, "parkedKeys");
    if (retryingKeys < 0) {
      throw new IllegalArgumentException("retryingKeys must be >= 0, but was " + retryingKeys);
    }
  }

  /** A state without counts, e.g. before start or after stop. */
  public static RelayState of(Phase phase, String reason) {
    return new RelayState(phase, reason, OptionalInt.empty(), 0, OptionalInt.empty());
  }

  /** Phase, and the reason unless empty, e.g. {@code STANDBY (owns no key buckets)}. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(phase.name());
    if (!reason.isEmpty()) {
      b.append(" (").append(reason).append(')');
    }
    ownedBuckets.ifPresent(n -> b.append(", buckets=").append(n));
    b.append(", retryingKeys=").append(retryingKeys);
    parkedKeys.ifPresent(n -> b.append(", parkedKeys=").append(n));
    return b.toString();
  }
}
