package dev.outboxrelay.relay.polling;

import dev.outboxrelay.core.Secrets;
import dev.outboxrelay.relay.engine.DeadLetterSweep;
import dev.outboxrelay.relay.engine.StateSql;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The polling relay's rounds of the engine's {@link DeadLetterSweep}, for the buckets it holds at
 * the time (parked keys are never claimed, so a copy cannot overtake a batch in flight). Run by the
 * relay's own {@code -dead-letter} thread, never by the claim loop: a copy's send can block up to
 * the publish timeout (a missing topic, a slow broker), longer than a lease lives.
 */
final class DeadLetterRounds {
  private static final Logger log = LoggerFactory.getLogger(DeadLetterRounds.class);

  private final String name;
  private final DeadLetterSweep sweep;
  private final Leases leases;
  private volatile boolean stopped;

  private DeadLetterRounds(String name, DeadLetterSweep sweep, Leases leases) {
    this.name = name;
    this.sweep = sweep;
    this.leases = leases;
  }

  /** The rounds, when the relay has a dead-letter topic. */
  static Optional<DeadLetterRounds> of(PollingRelayConfig config, StateSql state, Leases leases) {
    return config
        .deadLetterTopic()
        .map(
            topic ->
                new DeadLetterRounds(
                    config.name(),
                    DeadLetterSweep.of(
                        config, topic, () -> RelaySql.relayConnection(config.dataSource()), state),
                    leases));
  }

  /** A round for the buckets held now, if one is due. */
  void run() {
    Set<Integer> held = leases.usable();
    if (held.isEmpty() || stopped) {
      return;
    }
    try {
      sweep.run(List.copyOf(held));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      log.warn("{} - dead-letter round failed: {}", name, Secrets.maskText(e.toString()));
    }
  }

  /** The relay's buckets changed: keys of other buckets are no longer its own to retry. */
  void forgetBackoff() {
    sweep.forgetBackoff();
  }

  void stop() {
    stopped = true;
  }
}
