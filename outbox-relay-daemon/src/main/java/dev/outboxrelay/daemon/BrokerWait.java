package dev.outboxrelay.daemon;

import dev.outboxrelay.core.BrokerCheck;
import dev.outboxrelay.core.BrokerCheck.Probe;
import dev.outboxrelay.core.Secrets;
import dev.outboxrelay.daemon.StartupFailure.Kind;
import dev.outboxrelay.daemon.config.RelayConfig;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits at start-up, until a deadline, for a relay's broker to answer the {@link BrokerCheck#probe}
 * of its publisher's reader. A check without a probe ({@code NOT_ASKED}) is not waited for.
 */
final class BrokerWait {
  private static final Logger log = LoggerFactory.getLogger(BrokerWait.class);
  private static final long MAX_PROBE_MS = 5_000;

  private BrokerWait() {}

  /**
   * The reader's probe; one that throws (a third party's bug) counts as no answer, so neither the
   * start-up wait nor the readiness sampler stops on it.
   */
  static Probe ask(BrokerCheck check, Duration timeout) {
    try {
      return check.probe(timeout);
    } catch (RuntimeException e) {
      return Probe.noAnswer("the probe failed: " + e);
    }
  }

  /**
   * @throws StartupFailure {@link Kind#UNAVAILABLE} naming the broker, past the deadline; {@link
   *     Kind#AUTHENTICATION} at once if the broker refuses the credentials or the TLS handshake
   */
  static void await(
      BrokerCheck check, RelayConfig relay, int index, long deadlineNanos, Duration budget) {
    for (int attempt = 1; ; attempt++) {
      long leftMs = (deadlineNanos - System.nanoTime()) / 1_000_000;
      Probe probe = ask(check, Duration.ofMillis(Math.max(500, Math.min(MAX_PROBE_MS, leftMs))));
      if (probe.outcome() == Probe.Outcome.REFUSED) {
        throw new StartupFailure(
            Kind.AUTHENTICATION,
            "relays["
                + index
                + "].publisher "
                + check.target()
                + " refused the credentials or the TLS handshake (check the security.protocol,"
                + " sasl.* and ssl.* settings): "
                + Secrets.maskText(probe.reason()));
      }
      if (probe.outcome() != Probe.Outcome.NO_ANSWER) {
        return;
      }
      String reason = Secrets.maskText(probe.reason());
      if (System.nanoTime() - deadlineNanos > 0) {
        throw new StartupFailure(
            Kind.UNAVAILABLE,
            "relays["
                + index
                + "].publisher "
                + check.target()
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
