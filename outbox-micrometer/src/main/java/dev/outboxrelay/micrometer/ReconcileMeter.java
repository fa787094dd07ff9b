package dev.outboxrelay.micrometer;

import java.util.Locale;

/**
 * The meters {@link ReconcileMeters} registers for one relay's reconciliation loop (the daemon's
 * {@code reconcile} section), named like {@link RelayMeter}'s and tagged {@code relay} and {@code
 * mode} the same way.
 */
public enum ReconcileMeter {
  CHECKED(
      "outbox.reconcile.checked",
      RelayMeter.Type.COUNTER,
      "Published rows the reconciliation looked for on the broker (discarded ones excluded)"),
  MISSING(
      "outbox.reconcile.missing",
      RelayMeter.Type.COUNTER,
      "Published rows the reconciliation did not find on the broker, once per run that saw them"),
  REPUBLISHED(
      "outbox.reconcile.republished",
      RelayMeter.Type.COUNTER,
      "Missing messages sent again (same id) and acknowledged by the broker"),
  FAILURES(
      "outbox.reconcile.failures",
      RelayMeter.Type.COUNTER,
      "Reconciliation runs that failed (database or broker error); nothing was counted missing"),
  /** With the 0.5 and 0.99 percentiles. */
  RUN("outbox.reconcile.run", RelayMeter.Type.TIMER, "Duration of each completed reconciliation"),
  LAST_SUCCESS(
      "outbox.reconcile.last.success.timestamp.seconds",
      RelayMeter.Type.GAUGE,
      "Unix time of the last completed reconciliation run (0 before the first)"),
  LAST_MISSING(
      "outbox.reconcile.last.missing",
      RelayMeter.Type.GAUGE,
      "Missing messages found by the last completed run");

  private final String meterName;
  private final RelayMeter.Type type;
  private final String description;

  ReconcileMeter(String meterName, RelayMeter.Type type, String description) {
    this.meterName = meterName;
    this.type = type;
    this.description = description;
  }

  /** The Micrometer name, such as {@code outbox.reconcile.missing}. */
  public String meterName() {
    return meterName;
  }

  /** The family in Prometheus' text format, by the rule of {@link RelayMeter#prometheusName()}. */
  public String prometheusName() {
    String base = meterName.replace('.', '_').toLowerCase(Locale.ROOT);
    return switch (type) {
      case COUNTER -> base + "_total";
      case TIMER -> base + "_seconds";
      case GAUGE -> base;
    };
  }

  public RelayMeter.Type type() {
    return type;
  }

  /** The description, Prometheus' HELP text. */
  public String description() {
    return description;
  }
}
