package dev.outboxrelay.testing;

import dev.outboxrelay.core.OutboxMessage;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * Concurrent writers committing or rolling back at random, with random delays before commit so rows
 * commit out of insertion order. Each key belongs to one writer, so its committed messages have one
 * true order. Records what committed and what rolled back.
 */
public final class Workload {
  /** Saves messages on a connection inside the caller's transaction (the writer under test). */
  public interface Saver {
    void save(Connection c, List<OutboxMessage> messages) throws SQLException;
  }

  private final Map<String, List<UUID>> committedByKey = new ConcurrentHashMap<>();
  private final Set<UUID> rolledBack = ConcurrentHashMap.newKeySet();

  /**
   * Runs {@code writers} threads of {@code transactions} each (1 to 3 messages over {@code
   * keysPerWriter} keys), rolling back about one in {@code rollbackEvery}, delaying each commit by
   * up to {@code maxCommitDelayMillis}. Returns when all are done.
   */
  public Workload run(
      DataSource ds,
      Saver saver,
      int writers,
      int transactions,
      int keysPerWriter,
      int rollbackEvery,
      int maxCommitDelayMillis)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        futures.add(
            pool.submit(
                () -> {
                  write(
                      ds,
                      saver,
                      writer,
                      transactions,
                      keysPerWriter,
                      rollbackEvery,
                      maxCommitDelayMillis);
                  return null;
                }));
      }
      for (Future<?> f : futures) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    return this;
  }

  private void write(
      DataSource ds,
      Saver saver,
      int writer,
      int transactions,
      int keys,
      int rollbackEvery,
      int maxDelay)
      throws SQLException {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      for (int t = 0; t < transactions; t++) {
        List<OutboxMessage> messages = new ArrayList<>();
        for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
          messages.add(message("w" + writer + "-k" + random.nextInt(keys)));
        }
        saver.save(c, messages);
        // Simulated work inside the transaction, so that commits land out of insertion order.
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(random.nextInt(maxDelay + 1)));
        if (random.nextInt(rollbackEvery) == 0) {
          c.rollback();
          messages.forEach(m -> rolledBack.add(m.id()));
        } else {
          c.commit();
          messages.forEach(
              m ->
                  committedByKey
                      .computeIfAbsent(
                          m.aggregateId(), k -> Collections.synchronizedList(new ArrayList<>()))
                      .add(m.id()));
        }
      }
    }
  }

  /** A small order event for a key. */
  public static OutboxMessage message(String key) {
    return OutboxMessage.builder()
        .aggregateType("order")
        .aggregateId(key)
        .type("OrderChanged")
        .payload("{\"key\":\"" + key + "\",\"at\":" + System.nanoTime() + "}")
        .build();
  }

  public Map<String, List<UUID>> committedByKey() {
    return committedByKey;
  }

  public Set<UUID> rolledBack() {
    return rolledBack;
  }

  public int committedCount() {
    return committedByKey.values().stream().mapToInt(List::size).sum();
  }
}
