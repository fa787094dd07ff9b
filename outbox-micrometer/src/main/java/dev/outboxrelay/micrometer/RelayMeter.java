package dev.outboxrelay.micrometer;

import java.util.Locale;

/**
 * The meters {@link RelayMeters} registers for one relay: one set of names for the daemon and the
 * Spring Boot starter. Every meter is tagged {@code relay} (the relay's name) and {@code mode}
 * ({@code polling} or {@code cdc}); {@link #ERRORS} also {@code kind}, {@link #PHASE} also {@code
 * phase}.
 */
public enum RelayMeter {
  PUBLISHED(
      "outbox.published", Type.COUNTER, "Messages acknowledged by the broker and marked done"),
  RETRIES(
      "outbox.retries",
      Type.COUNTER,
      "Publish attempts that failed retriably and were scheduled again"),
  PARKED("outbox.parked", Type.COUNTER, "Messages that failed non-retriably and parked their key"),
  DEAD_LETTER_SENT(
      "outbox.deadletter.sent",
      Type.COUNTER,
      "Parked messages copied to the dead-letter topic and recorded"),
  DEAD_LETTER_FAILURES(
      "outbox.deadletter.failures",
      Type.COUNTER,
      "Dead-letter copies that failed and are tried again (the key stays parked)"),
  FENCED_MARKS("outbox.fenced.marks", Type.COUNTER, "Marks refused because the lease was lost"),
  /** Tag {@code kind}: {@code publish}, {@code rejected} or {@code database}. */
  ERRORS(
      "outbox.errors",
      Type.COUNTER,
      "Relay failures by kind: publish (retriable broker failure, backed off), rejected"
          + " (non-retriable, the key was parked), database (backed off)"),
  /** With the 0.5 and 0.99 percentiles. */
  PUBLISH_ACK(
      "outbox.publish.ack", Type.TIMER, "Publish call to broker acknowledgement, per batch"),
  OWNED_BUCKETS("outbox.owned.buckets", Type.GAUGE, "Key buckets whose lease this relay holds"),
  BACKLOG("outbox.backlog.messages", Type.GAUGE, "Rows pending publication (sampled)"),
  OLDEST_PENDING_AGE(
      "outbox.oldest.pending.age.seconds", Type.GAUGE, "Age of the oldest pending row (sampled)"),
  PARKED_KEYS("outbox.parked.keys", Type.GAUGE, "Keys parked awaiting an operator (sampled)"),
  RELAY_LAG(
      "outbox.relay.lag.seconds",
      Type.GAUGE,
      "Row creation to broker acknowledgement of the last published batch"),
  /**
   * Tag {@code phase}: one series per {@code RelayState.Phase} in lower case, 1 for the phase the
   * relay is in and 0 for the others.
   */
  PHASE(
      "outbox.relay.phase",
      Type.GAUGE,
      "1 for the relay's current phase (new, starting, active, standby, failed, stopping, stopped),"
          + " 0 for the others (sampled)"),
  READY(
      "outbox.relay.ready",
      Type.GAUGE,
      "1 while the relay reports ready (daemon /health/ready, starter health UP), else 0 (sampled)");

  /** How the meter is registered. */
  public enum Type {
    COUNTER,
    GAUGE,
    TIMER
  }

  private final String meterName;
  private final Type type;
  private final String description;

  RelayMeter(String meterName, Type type, String description) {
    this.meterName = meterName;
    this.type = type;
    this.description = description;
  }

  /** The Micrometer name, such as {@code outbox.published}. */
  public String meterName() {
    return meterName;
  }

  /**
   * The name of the family in Prometheus' text format, such as {@code outbox_published_total}
   * (Micrometer's Prometheus naming convention: {@code _total} after counters, {@code _seconds}
   * after timers).
   */
  public String prometheusName() {
    String base = meterName.replace('.', '_').toLowerCase(Locale.ROOT);
    return switch (type) {
      case COUNTER -> base + "_total";
      case TIMER -> base + "_seconds";
      case GAUGE -> base;
    };
  }

  public Type type() {
    return type;
  }

  /** The description, which Prometheus shows as the family's HELP text. */
  public String description() {
    return description;
  }
}
