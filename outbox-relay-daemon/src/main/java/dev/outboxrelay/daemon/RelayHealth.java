package dev.outboxrelay.daemon;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.core.RetriablePublishException;
import dev.outboxrelay.core.Secrets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * What readiness needs to know about one relay beyond "its thread runs": did its broker answer
 * recently, and can its tables be read. "Recently" is the relay's {@code publish-timeout}, the
 * bound it already keeps on waiting for a broker: an acknowledged publish or a successful probe is
 * an answer; a retriable publish failure or a failed probe after the last answer means the broker
 * is not answering now. A round that acknowledged nothing is no answer (the relays report it with
 * an empty list). A publish failure is cleared by an acknowledgement, not by a probe: the cluster
 * may answer {@code describeCluster} while refusing writes (Kafka NotEnoughReplicas), and readiness
 * must not flap UP between failed rounds. Only a publish failure older than twice the longest
 * spacing of a key's retries ({@code publish-timeout + backoff-max}) yields to a probe: nothing is
 * retrying any more (the key's lease went to another instance), and an idle relay must not stay
 * DOWN for ever while its broker answers. While nothing is published the sampler probes the broker
 * (every third of the window), so an idle relay stays ready only while its broker answers.
 * Thread-safe.
 */
final class RelayHealth implements RelayListener {
  private final long windowNanos;
  private final long staleNanos;
  private final LongSupplier nanoTime;
  private volatile long lastAnswer; // the start-up probe answered
  private volatile boolean failingSinceAnswer;
  private volatile boolean publishFailing; // since the last acknowledgement
  private volatile long lastPublishFailure;
  private volatile String failure = "";
  private volatile String database; // null: the last sample read the tables

  RelayHealth(Duration window, Duration backoffMax, LongSupplier nanoTime) {
    this.windowNanos = window.toNanos();
    this.staleNanos = 2 * (windowNanos + backoffMax.toNanos());
    this.nanoTime = nanoTime;
    this.lastAnswer = nanoTime.getAsLong();
  }

  @Override
  public void onPublished(List<OutboxMessage> messages, Duration publishLatency) {
    if (!messages.isEmpty()) {
      publishFailing = false;
      answered();
    }
  }

  @Override
  public void onRetry(
      OutboxMessage message, PublishException failure, int attempt, Duration delay) {
    if (failure instanceof RetriablePublishException) {
      publishFailing = true;
      lastPublishFailure = nanoTime.getAsLong();
      failed(failure.toString());
    }
  }

  /** Whether the broker should be probed: no answer for a third of the window. */
  boolean needsProbe() {
    return nanoTime.getAsLong() - lastAnswer > windowNanos / 3;
  }

  void probed(Optional<String> failureReason) {
    if (failureReason.isPresent()) {
      failed(failureReason.get());
    } else if (!publishFailing || nanoTime.getAsLong() - lastPublishFailure > staleNanos) {
      publishFailing = false;
      answered();
    }
  }

  void databaseSampled(Optional<String> error) {
    database = error.map(Secrets::maskText).orElse(null);
  }

  /** Why this relay is not ready, empty when its broker and tables answer. */
  List<String> problems() {
    List<String> reasons = new ArrayList<>();
    if (database != null) {
      reasons.add("database: " + database);
    }
    long silent = nanoTime.getAsLong() - lastAnswer;
    if (failingSinceAnswer) {
      reasons.add(
          "publisher: failing, last answer " + silent / 1_000_000_000 + " s ago: " + failure);
    } else if (silent > windowNanos) {
      reasons.add(
          "publisher: no answer for "
              + silent / 1_000_000_000
              + " s (publish-timeout "
              + Duration.ofNanos(windowNanos)
              + ")");
    }
    return reasons;
  }

  private void answered() {
    lastAnswer = nanoTime.getAsLong();
    failingSinceAnswer = false;
  }

  private void failed(String reason) {
    failure = Secrets.maskText(reason);
    failingSinceAnswer = true;
  }
}
