package dev.outboxrelay.daemon;

import dev.outboxrelay.core.BrokerCheck;
import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.daemon.config.DaemonConfig;
import dev.outboxrelay.daemon.config.RelayConfig;
import dev.outboxrelay.relay.engine.DiscardedMessage;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * One reconciliation on demand: every row the relay marked published in a time window (retention
 * {@code keep:<duration>}) must be on the broker, as the reader the publisher's factory offers
 * tells ({@link BrokerCheck}: Kafka by the {@code id} header, RocketMQ by the message key; a
 * publisher that offers none is refused, naming {@code relays[N].publisher.type}). Reports the
 * missing ones and, with {@code --republish}, publishes them again with the same id through the
 * relay's publisher (idempotent for deduplicating consumers, and a second verify finds nothing
 * missing). Messages an operator discarded ({@code parked discard}) are reported as discarded: they
 * are not missing and are never republished. Exit code 0 when nothing is missing (or everything
 * missing was republished), 1 otherwise; discarded messages do not count. The {@code reconcile}
 * loop of {@code run} does the same on a schedule ({@link ReconcileLoop}).
 */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description =
        "Compare published outbox rows of a time window with the broker, through the broker"
            + " reader of the relay's publisher, by message id; report and optionally republish"
            + " the missing ones.")
final class VerifyCommand implements Callable<Integer> {
  @Mixin ConfigOption config;
  @Spec CommandSpec spec;

  @Option(
      names = "--since",
      required = true,
      description = "Window start, ISO-8601 instant (rows created at or after it).")
  Instant since;

  @Option(names = "--until", description = "Window end, ISO-8601 instant. Default: now.")
  Instant until;

  @Option(names = "--republish", description = "Publish the missing messages again (same id).")
  boolean republish;

  @Option(
      names = "--slack",
      defaultValue = "PT5M",
      description =
          "How long before the window the topic scan starts (clock skew and publish delay)."
              + " Default: ${DEFAULT-VALUE}.")
  Duration slack;

  @Override
  public Integer call() {
    DaemonConfig cfg = config.load();
    RelayConfig relay = cfg.relayOrOnly(config.relay);
    int index = cfg.relays().indexOf(relay);
    try (BrokerCheck check = Wiring.brokerCheck(relay, index, "verify")) {
      return verify(cfg, relay, index, check);
    }
  }

  private Integer verify(DaemonConfig cfg, RelayConfig relay, int index, BrokerCheck check) {
    if (relay.keepPublishedFor().isEmpty()) {
      throw new OutboxConfigException(
          "relays[" + index + "].retention",
          "delete",
          "must be keep:<duration> for verify (published rows are the evidence to compare)");
    }
    PrintWriter out = spec.commandLine().getOut();
    Instant to = until == null ? Instant.now() : until;
    TopicTemplate topics = check.topics();
    Reconciliation window;
    try (AdminSession s = AdminSession.open(cfg, relay)) {
      window = Reconciliation.read(s.admin, topics, since, to);
    }
    out.printf(
        "verify %s: %d published row(s) created in [%s, %s) on %d topic(s)%n",
        relay.name(), window.rows(), since, to, window.byTopic().size());
    List<DiscardedMessage> discarded = window.discarded();
    out.printf("discarded: %d (never sent, by operator decision; not missing)%n", discarded.size());
    for (DiscardedMessage d : discarded.subList(0, Math.min(discarded.size(), 100))) {
      out.printf(
          "discarded id=%s key=%s discarded_at=%s by=%s reason=%s%n",
          d.messageId(), d.aggregateId(), d.discardedAt(), d.discardedBy(), d.reason());
    }
    out.flush();

    List<OutboxMessage> missing = window.missing(check, since.minus(slack), line(out));
    out.printf("missing: %d of %d%n", missing.size(), window.expected());
    for (OutboxMessage m : missing.subList(0, Math.min(missing.size(), 100))) {
      out.printf(
          "missing id=%s key=%s type=%s seq=%s topic=%s%n",
          m.id(),
          m.aggregateId(),
          m.type(),
          m.sequence().isPresent() ? String.valueOf(m.sequence().getAsLong()) : "-",
          topics.topicFor(m));
    }
    if (missing.size() > 100) {
      out.printf("... and %d more%n", missing.size() - 100);
    }
    out.flush();
    if (missing.isEmpty()) {
      return 0;
    }
    if (!republish) {
      return 1;
    }
    int acknowledged;
    PublisherCheck.beforeAnyWait(relay, index);
    try (Publisher publisher = Wiring.publisher(relay, index)) {
      acknowledged = Reconciliation.republish(publisher, missing, line(out), line(out));
    }
    int failed = missing.size() - acknowledged;
    out.printf("republished: %d, failed: %d%n", acknowledged, failed);
    out.flush();
    return failed == 0 ? 0 : 1;
  }

  private static java.util.function.Consumer<String> line(PrintWriter out) {
    return l -> {
      out.println(l);
      out.flush();
    };
  }
}
