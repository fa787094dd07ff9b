package dev.outboxrelay.spring;

import dev.outboxrelay.relay.polling.OutboxAdmin;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health of the embedded relay (contributor {@code outbox}): DOWN when the relay was started but
 * its threads died, UNKNOWN while it is not started ({@code outbox.relay.auto-startup=false}, or
 * after the context stopped it), UP otherwise; with the backlog (rows not yet published) and the
 * number of parked keys as details. A parked key does not make the application DOWN: it is an
 * operator's matter (see OutboxAdmin), and other keys keep flowing.
 */
public final class OutboxHealthIndicator implements HealthIndicator {
  private final OutboxRelayLifecycle relay;
  private final OutboxAdmin admin;

  public OutboxHealthIndicator(OutboxRelayLifecycle relay, OutboxAdmin admin) {
    this.relay = relay;
    this.admin = admin;
  }

  @Override
  public Health health() {
    Health.Builder b =
        relay.isAlive() ? Health.up() : relay.isRunning() ? Health.down() : Health.unknown();
    b.withDetail("relay", relay.name())
        .withDetail("mode", relay.mode().name().toLowerCase(java.util.Locale.ROOT))
        .withDetail("started", relay.isRunning())
        .withDetails(relay.details());
    try {
      b.withDetail("backlog", admin.pendingCount()).withDetail("parkedKeys", admin.parked().size());
    } catch (RuntimeException e) {
      b.down(e);
    }
    return b.build();
  }
}
