package dev.outboxrelay.it.polling.late;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.writer.Outbox;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;

/**
 * Writers that always hold an open transaction: each inserts 1–3 outbox rows of its own keys, keeps
 * them uncommitted for a random delay up to {@code maxDelay} (an application doing slow work after
 * its insert), then commits (one in ten rolls back), and starts the next at once. A key belongs to
 * one writer, so its insertion order is its commit order, the order {@link #committed} records.
 */
final class LateCommitWriters implements AutoCloseable {
  record Committed(OutboxMessage message, long commitNanos) {}

  private final List<Committed> committed = Collections.synchronizedList(new ArrayList<>());
  private final List<OutboxMessage> rolledBack = Collections.synchronizedList(new ArrayList<>());
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final Outbox outbox = Outbox.builder().build();
  private final ExecutorService threads;
  private final Duration maxDelay;
  private volatile boolean running = true;

  LateCommitWriters(DataSource ds, int writers, Duration maxDelay) {
    this.maxDelay = maxDelay;
    this.threads = Executors.newFixedThreadPool(writers);
    for (int w = 0; w < writers; w++) {
      int writer = w;
      threads.execute(() -> write(ds, writer));
    }
  }

  private void write(DataSource ds, int writer) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      while (running) {
        List<OutboxMessage> tx = new ArrayList<>();
        for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
          tx.add(message("w" + writer + "-k" + random.nextInt(4)));
        }
        outbox.saveAll(c, tx);
        // The workload itself, not a wait for an outcome: the rows stay uncommitted this long.
        Thread.sleep(random.nextLong(maxDelay.toMillis() + 1));
        if (random.nextInt(10) == 0) {
          c.rollback();
          rolledBack.addAll(tx);
        } else {
          c.commit();
          long now = System.nanoTime();
          tx.forEach(m -> committed.add(new Committed(m, now)));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      failure.compareAndSet(null, e);
    }
  }

  static OutboxMessage message(String key) {
    return OutboxMessage.builder()
        .aggregateType("order")
        .aggregateId(key)
        .type("OrderChanged")
        .payload("{\"key\":\"" + key + "\"}")
        .build();
  }

  /** Lets every writer finish its transaction, then returns; rethrows a writer's failure. */
  void stop() throws Exception {
    running = false;
    threads.shutdown();
    if (!threads.awaitTermination(maxDelay.toMillis() + 30_000, TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException("writers did not finish their last transaction");
    }
    if (failure.get() != null) {
      throw new IllegalStateException("a writer failed", failure.get());
    }
  }

  List<Committed> committed() {
    return List.copyOf(committed);
  }

  List<OutboxMessage> rolledBack() {
    return List.copyOf(rolledBack);
  }

  @Override
  public void close() {
    running = false;
    threads.shutdownNow();
  }
}
