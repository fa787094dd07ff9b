package dev.outboxrelay.daemon;

import dev.outboxrelay.core.Secrets;
import dev.outboxrelay.daemon.StartupFailure.Kind;
import dev.outboxrelay.daemon.config.RelayConfig;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Waits at start-up, until a deadline, for a relay's broker to answer its {@link BrokerProbe}. */
final class BrokerWait {
  private static final Logger log = LoggerFactory.getLogger(BrokerWait.class);
  private static final long MAX_PROBE_MS = 5_000;

  private BrokerWait() {}

  /**
   * @throws StartupFailure {@link Kind#UNAVAILABLE} naming the broker, past the deadline; {@link
   *     Kind#AUTHENTICATION} at once if the broker refuses the credentials or the TLS handshake
   */
  static void await(
      BrokerProbe probe, RelayConfig relay, int index, long deadlineNanos, Duration budget) {
    for (int attempt = 1; ; attempt++) {
      long leftMs = (deadlineNanos - System.nanoTime()) / 1_000_000;
      Optional<String> failure;
      try {
        failure = probe.check(Duration.ofMillis(Math.max(500, Math.min(MAX_PROBE_MS, leftMs))));
      } catch (BrokerProbe.AuthenticationFailed e) {
        throw new StartupFailure(
            Kind.AUTHENTICATION,
            "relays["
                + index
                + "].publisher "
                + probe.target()
                + " refused the credentials or the TLS handshake (check the security.protocol,"
                + " sasl.* and ssl.* settings): "
                + Secrets.maskText(e.getMessage()));
      }
      if (failure.isEmpty()) {
        return;
      }
      String reason = Secrets.maskText(failure.get());
      if (System.nanoTime() - deadlineNanos > 0) {
        throw new StartupFailure(
            Kind.UNAVAILABLE,
            "relays["
                + index
                + "].publisher "
                + probe.target()
                + " is not reachable ("
                + attempt
                + " attempt(s) within startup-timeout "
                + budget
                + "): "
                + reason);
      }
      log.warn(
          "Relay {} - broker not reachable yet (attempt {}): {}", relay.name(), attempt, reason);
      try {
        Thread.sleep(200); // a start-up backoff between probes that may fail fast
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StartupFailure(Kind.UNAVAILABLE, "interrupted while waiting for the broker");
      }
    }
  }
}
