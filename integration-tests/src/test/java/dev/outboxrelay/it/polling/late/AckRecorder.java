package dev.outboxrelay.it.polling.late;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Acknowledges every message at once and records when, in one order shared by every relay using it;
 * a broker that is never the bottleneck, so what the test measures is the relays' SQL.
 */
final class AckRecorder implements Publisher {
  record Ack(OutboxMessage message, long nanos) {}

  private final List<Ack> acks = Collections.synchronizedList(new ArrayList<>());

  @Override
  public CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch) {
    List<PublishResult> results = new ArrayList<>(batch.size());
    synchronized (acks) {
      long now = System.nanoTime();
      for (OutboxMessage m : batch) {
        acks.add(new Ack(m, now));
        results.add(PublishResult.acknowledged(m));
      }
    }
    return CompletableFuture.completedFuture(results);
  }

  /** Every acknowledgement so far, duplicates included, in acknowledgement order. */
  List<Ack> acks() {
    synchronized (acks) {
      return List.copyOf(acks);
    }
  }

  @Override
  public void close() {}
}
