package dev.outboxrelay.testing;

import dev.outboxrelay.core.OutboxMessage;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writers that save several keys per transaction in random order, from a small key space, while a
 * reader watches the outbox table: the load that deadlocks writers that lock keys as they save
 * them. The reader flags any row whose {@code seq} is below one it already saw for that key (a
 * key's {@code seq} out of commit order). Each message's payload names its transaction and its
 * index in it, so {@link #outOfSaveOrder} can check the order within a transaction.
 */
public final class ContendedWriters {
  /** One business transaction writing {@code messages} in that order, committing at its end. */
  public interface Transaction {
    void write(List<OutboxMessage> messages) throws Exception;
  }

  /** What a connection source gives: a new connection to the database under test. */
  public interface Connections {
    Connection connect() throws SQLException;
  }

  /**
   * Transactions that threw (a deadlock or lock abort among them), per-key regressions the reader
   * saw, and messages in committed transactions.
   */
  public record Result(List<Throwable> failures, List<String> regressions, int committedMessages) {}

  private final Connections connections;
  private final int keys;

  /** Over {@code keys} keys ({@code k0}, {@code k1}, ...), reading the {@code outbox} table. */
  public ContendedWriters(Connections connections, int keys) {
    this.connections = connections;
    this.keys = keys;
  }

  /** Runs {@code writers} threads of {@code transactions} each; fails after one minute. */
  public Result run(int writers, int transactions, Transaction tx) throws Exception {
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger committed = new AtomicInteger();
    AtomicBoolean done = new AtomicBoolean();
    CompletableFuture<List<String>> reader = CompletableFuture.supplyAsync(() -> watch(done));
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<CompletableFuture<Void>> all = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      all.add(CompletableFuture.runAsync(() -> write(transactions, tx, failures, committed), pool));
    }
    try {
      CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(1, TimeUnit.MINUTES);
    } finally {
      pool.shutdownNow();
      done.set(true);
    }
    return new Result(List.copyOf(failures), reader.get(1, TimeUnit.MINUTES), committed.get());
  }

  private void write(
      int transactions, Transaction tx, List<Throwable> failures, AtomicInteger committed) {
    for (int t = 0; t < transactions; t++) {
      List<OutboxMessage> messages = transaction();
      try {
        tx.write(messages);
        committed.addAndGet(messages.size());
      } catch (Exception e) {
        failures.add(e);
      }
    }
  }

  /** 1–6 distinct keys in random order, 1–2 messages each, in save order. */
  private List<OutboxMessage> transaction() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    List<Integer> picked = new ArrayList<>();
    for (int i = 0; i < keys; i++) {
      picked.add(i);
    }
    Collections.shuffle(picked, r);
    UUID tx = UUID.randomUUID();
    List<OutboxMessage> messages = new ArrayList<>();
    for (int k : picked.subList(0, 1 + r.nextInt(6))) {
      for (int n = 1 + r.nextInt(2); n > 0; n--) {
        messages.add(
            OutboxMessage.builder()
                .aggregateType("order")
                .aggregateId("k" + k)
                .type("Contended")
                .payload(tx + "/" + messages.size())
                .build());
      }
    }
    return messages;
  }

  private List<String> watch(AtomicBoolean done) {
    List<String> regressions = new ArrayList<>();
    Map<String, Long> highest = new HashMap<>();
    Set<Long> seen = new HashSet<>();
    try (Connection c = connections.connect();
        Statement st = c.createStatement()) {
      boolean last = false;
      while (!last) {
        last = done.get();
        try (ResultSet rs = st.executeQuery("SELECT aggregateid, seq FROM outbox ORDER BY seq")) {
          while (rs.next()) {
            String key = rs.getString(1);
            long seq = rs.getLong(2);
            if (seen.add(seq) && seq < highest.getOrDefault(key, Long.MIN_VALUE)) {
              regressions.add(key + ": seq " + seq + " after " + highest.get(key));
            }
            highest.merge(key, seq, Math::max);
          }
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return regressions;
  }

  /** Rows of one transaction and key whose {@code seq} order is not their save order. */
  public static List<String> outOfSaveOrder(List<OutboxMessage> rowsBySeq) {
    Map<String, Integer> lastIndex = new HashMap<>();
    List<String> wrong = new ArrayList<>();
    for (OutboxMessage row : rowsBySeq) {
      String[] txAndIndex = new String(row.payload(), StandardCharsets.UTF_8).split("/");
      String txKey = txAndIndex[0] + "/" + row.aggregateId();
      int index = Integer.parseInt(txAndIndex[1]);
      Integer before = lastIndex.put(txKey, index);
      if (before != null && before > index) {
        wrong.add(txKey + ": " + index + " after " + before);
      }
    }
    return wrong;
  }
}
