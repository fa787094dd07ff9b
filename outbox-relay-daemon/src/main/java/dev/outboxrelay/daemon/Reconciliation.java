package dev.outboxrelay.daemon;

import dev.outboxrelay.core.BrokerCheck;
import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.relay.engine.DiscardedMessage;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * What {@code verify} and the {@code reconcile} loop share: the rows marked published in a window
 * (kept rows, retention {@code keep:}), less those an operator discarded, grouped by topic; which
 * of them the broker lacks ({@link BrokerCheck}); and sending those again through a publisher.
 *
 * @param rows rows marked published and created in the window, discarded ones included
 * @param discarded the operator's decisions among them: never sent on purpose, so neither looked
 *     for nor missing, and never republished
 * @param byTopic the rest, the messages the broker must hold, by topic
 */
record Reconciliation(
    long rows, List<DiscardedMessage> discarded, Map<String, List<OutboxMessage>> byTopic) {

  /** Reads the window {@code [from, to)} of created time. */
  static Reconciliation read(OutboxAdmin admin, TopicTemplate topics, Instant from, Instant to) {
    Map<UUID, DiscardedMessage> decisions = new HashMap<>();
    admin.discarded().forEach(d -> decisions.put(d.messageId(), d));
    List<DiscardedMessage> discarded = new ArrayList<>();
    Map<String, List<OutboxMessage>> byTopic = new LinkedHashMap<>();
    long rows =
        admin.publishedBetween(
            from,
            to,
            m -> {
              DiscardedMessage d = decisions.get(m.id());
              if (d != null) {
                discarded.add(d);
              } else {
                byTopic.computeIfAbsent(topics.topicFor(m), t -> new ArrayList<>()).add(m);
              }
            });
    return new Reconciliation(rows, discarded, byTopic);
  }

  /** How many messages the broker must hold. */
  int expected() {
    return byTopic.values().stream().mapToInt(List::size).sum();
  }

  /**
   * The expected messages the broker lacks, in sequence order per topic. {@code from} is the
   * earliest time any of them can have been stored (the window's start less some slack).
   */
  List<OutboxMessage> missing(BrokerCheck check, Instant from, Consumer<String> progress) {
    if (byTopic.isEmpty()) {
      return List.of();
    }
    Set<UUID> seen = check.present(byTopic, from, progress);
    List<OutboxMessage> missing = new ArrayList<>();
    byTopic
        .values()
        .forEach(ms -> ms.stream().filter(m -> !seen.contains(m.id())).forEach(missing::add));
    return missing;
  }

  /**
   * Sends {@code missing} again, same id, in batches of 500, and returns how many the broker
   * acknowledged; {@code failed} receives each one it did not, with the result.
   */
  static int republish(
      Publisher publisher,
      List<OutboxMessage> missing,
      Consumer<String> progress,
      Consumer<String> failed) {
    int acknowledged = 0;
    for (int i = 0; i < missing.size(); i += 500) {
      List<OutboxMessage> batch =
          missing.subList(i, Math.min(missing.size(), i + 500)).stream()
              .map(Reconciliation::withoutOrderPromise)
              .toList();
      List<PublishResult> results = publisher.publish(batch).toCompletableFuture().join();
      for (int j = 0; j < results.size(); j++) {
        if (results.get(j).isAcknowledged()) {
          acknowledged++;
        } else {
          failed.accept("republish failed id=" + batch.get(j).id() + ": " + results.get(j));
        }
      }
      progress.accept("republished " + Math.min(missing.size(), i + 500) + " of " + missing.size());
    }
    return acknowledged;
  }

  /**
   * A republished message arrives after later messages of its key, so it must not promise that its
   * {@code seq} follows commit order per key: a consumer's high-water mark would take it for STALE
   * and skip it for good, the very message the broker lost. Without the marker the consumer dedups
   * it by id only and applies it once (consumer-dedup README, "High-water mark").
   */
  static OutboxMessage withoutOrderPromise(OutboxMessage m) {
    return m.headers().containsKey(MessageContract.HEADER_SEQUENCE_ORDER)
        ? m.toBuilder().removeHeader(MessageContract.HEADER_SEQUENCE_ORDER).build()
        : m;
  }
}
