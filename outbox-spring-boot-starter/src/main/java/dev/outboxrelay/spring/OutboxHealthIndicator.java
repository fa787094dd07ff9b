package dev.outboxrelay.spring;

import dev.outboxrelay.core.RelayState;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import java.util.Locale;
import java.util.Optional;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health of the embedded relay (contributor {@code outbox}), from its {@link RelayState}: UP while
 * the relay is {@code STARTING}, {@code ACTIVE} or on {@code STANDBY} (another instance does the
 * work), DOWN when it is {@code FAILED} or stopped by itself, UNKNOWN while it is not started
 * ({@code outbox.relay.auto-startup=false}, or after the context stopped it). Details: {@code
 * relay}, {@code mode}, {@code started}, the state's {@code phase}, {@code reason} (unless active),
 * {@code buckets} (polling) and {@code retryingKeys}, and from the table the {@code backlog} (rows
 * not yet published) and {@code parkedKeys}. A parked key does not make the application DOWN: it is
 * an operator's matter (see OutboxAdmin), and other keys keep flowing.
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
    Optional<RelayState> state = relay.state();
    Health.Builder b =
        state.isEmpty() ? Health.unknown() : relay.isAlive() ? Health.up() : Health.down();
    b.withDetail("relay", relay.name())
        .withDetail("mode", relay.mode().name().toLowerCase(Locale.ROOT))
        .withDetail("started", state.isPresent());
    state.ifPresent(s -> details(b, s));
    try {
      b.withDetail("backlog", admin.pendingCount()).withDetail("parkedKeys", admin.parked().size());
    } catch (RuntimeException e) {
      b.down(e);
    }
    return b.build();
  }

  private static void details(Health.Builder b, RelayState s) {
    b.withDetail("phase", s.phase().name());
    if (!s.reason().isEmpty()) {
      b.withDetail("reason", s.reason());
    }
    s.ownedBuckets().ifPresent(n -> b.withDetail("buckets", n));
    b.withDetail("retryingKeys", s.retryingKeys());
  }
}
