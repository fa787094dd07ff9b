package dev.outboxrelay.dedup.internal;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits offsets whose database transactions committed, and keeps them right through rebalances:
 * on revocation it commits the revoked partitions' processed offsets and forgets the rest; on loss
 * it only forgets (another member may own them already). Callbacks run inside {@code poll} on the
 * loop thread; only {@link #assignment()} may be read from other threads.
 */
public final class OffsetCommitter implements ConsumerRebalanceListener {
  private static final Logger LOG = LoggerFactory.getLogger(OffsetCommitter.class);

  private final String name;
  private final Consumer<?, ?> consumer;
  private final PartitionProgress progress;
  private final java.util.function.Consumer<Collection<TopicPartition>> beforeRelease;
  private volatile Set<TopicPartition> assignment = Set.of();
  private Map<TopicPartition, OffsetAndMetadata> sent = Map.of();

  public OffsetCommitter(String name, Consumer<?, ?> consumer, PartitionProgress progress) {
    this(name, consumer, progress, partitions -> {});
  }

  /**
   * As above; {@code beforeRelease} runs first on revocation and loss (e.g. to finish the work in
   * flight on those partitions and record its progress before their offsets are committed).
   */
  public OffsetCommitter(
      String name,
      Consumer<?, ?> consumer,
      PartitionProgress progress,
      java.util.function.Consumer<Collection<TopicPartition>> beforeRelease) {
    this.name = name;
    this.consumer = consumer;
    this.progress = progress;
    this.beforeRelease = beforeRelease;
  }

  /** Commits these offsets synchronously; a refused commit drops them (dedup covers repeats). */
  public void commit(Map<TopicPartition, OffsetAndMetadata> offsets) {
    if (offsets.isEmpty()) {
      return;
    }
    try {
      consumer.commitSync(offsets);
      progress.committed(offsets);
    } catch (CommitFailedException e) {
      // The group moved on: the new owner redelivers from the last commit and dedup skips repeats.
      LOG.warn("{} - Offset commit refused after a rebalance, dropping {}", name, offsets.keySet());
      progress.forget(offsets.keySet());
    } catch (WakeupException e) {
      throw e;
    } catch (KafkaException e) {
      LOG.warn("{} - Offset commit failed, will retry: {}", name, e.toString());
    }
  }

  /**
   * Sends these offsets without waiting (each only once); they are forgotten when the broker
   * confirms. A lost or refused commit costs redeliveries, which dedup absorbs; revocation and
   * close commit synchronously.
   */
  public void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets) {
    if (offsets.isEmpty() || offsets.equals(sent)) {
      return;
    }
    sent = offsets;
    consumer.commitAsync(
        offsets,
        (committed, e) -> {
          if (e == null) {
            progress.committed(committed);
          } else {
            LOG.debug(
                "{} - Asynchronous offset commit failed, will resend: {}", name, e.toString());
            if (committed.equals(sent)) {
              sent = Map.of();
            }
          }
        });
  }

  /** The partitions assigned after the last rebalance. Thread-safe. */
  public Set<TopicPartition> assignment() {
    return assignment;
  }

  @Override
  public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
    LOG.info("{} - Revoked {}", name, partitions);
    beforeRelease.accept(partitions);
    commit(progress.pending(partitions));
    progress.forget(partitions);
    change(partitions, false);
  }

  @Override
  public void onPartitionsLost(Collection<TopicPartition> partitions) {
    LOG.warn("{} - Lost {} without committing; the new owner redelivers", name, partitions);
    beforeRelease.accept(partitions);
    progress.forget(partitions);
    change(partitions, false);
  }

  @Override
  public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
    LOG.info("{} - Assigned {}", name, partitions);
    change(partitions, true);
  }

  private void change(Collection<TopicPartition> partitions, boolean add) {
    Set<TopicPartition> now = new HashSet<>(assignment);
    if (add) {
      now.addAll(partitions);
    } else {
      now.removeAll(partitions);
    }
    assignment = Set.copyOf(now);
  }
}
