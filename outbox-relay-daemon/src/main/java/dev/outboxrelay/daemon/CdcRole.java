package dev.outboxrelay.daemon;

import dev.outboxrelay.core.Secrets;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;

/**
 * What a CDC relay is doing, for readiness: {@code streaming}, {@code standby} behind the session
 * that holds the source lock (read from the database, see {@link CdcOwner}), or stopped. Sampled on
 * the sampler thread, because asking the relay may wait while it establishes its stream; read by
 * the health handler.
 */
final class CdcRole {
  private final DataSource pool;
  private final String relay;
  private final BooleanSupplier streaming;
  private volatile String role = "starting";
  private volatile String owner;

  CdcRole(DataSource pool, String relay, BooleanSupplier streaming) {
    this.pool = pool;
    this.relay = relay;
    this.streaming = streaming;
  }

  void sample() {
    try {
      Optional<String> holder = CdcOwner.find(pool, relay);
      owner = holder.orElse(null);
      role =
          streaming.getAsBoolean()
              ? "streaming"
              : holder.isPresent() ? "standby" : "stopped (no relay holds the source)";
    } catch (SQLException | RuntimeException e) {
      role = "unknown (" + Secrets.maskText(e.getMessage()) + ")";
    }
  }

  /** Adds {@code role} and {@code owner} to the readiness fields, and a problem unless working. */
  void describe(Map<String, Object> fields, List<String> problems) {
    String r = role;
    fields.put("role", r);
    if (owner != null) {
      fields.put("owner", owner);
    }
    if (!r.equals("streaming") && !r.equals("standby")) {
      problems.add("relay: CDC " + r);
    }
  }
}
