package dev.outboxrelay.benchmarks;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.writer.Outbox;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

/** Writes outbox rows through the writer: {@code perTx} messages per transaction. */
final class Backlog {
  static final int KEYS = 1000;
  private static final Outbox OUTBOX = Outbox.builder().build();

  private Backlog() {}

  /** Writes {@code n} messages of {@code payloadBytes} over {@link #KEYS} keys; returns ms. */
  static long fill(DataSource ds, int n, int payloadBytes, int perTx) throws SQLException {
    long t0 = System.nanoTime();
    write(ds, n, payloadBytes, perTx, 0, 1);
    return (System.nanoTime() - t0) / 1_000_000;
  }

  /**
   * Writes {@code n} messages from {@code writers} threads, each on its own connection with its own
   * share of the keys, {@code perTx} messages per transaction; returns ms until the last commit.
   */
  static long fill(DataSource ds, int n, int payloadBytes, int perTx, int writers)
      throws Exception {
    if (writers == 1) {
      return fill(ds, n, payloadBytes, perTx);
    }
    long t0 = System.nanoTime();
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(writers);
    try {
      List<java.util.concurrent.Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        int share = n / writers + (w < n % writers ? 1 : 0);
        done.add(
            pool.submit(
                () -> {
                  write(ds, share, payloadBytes, perTx, writer, writers);
                  return null;
                }));
      }
      for (java.util.concurrent.Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return (System.nanoTime() - t0) / 1_000_000;
  }

  /** One writer's share: keys {@code k<writer>, k<writer + writers>, ...} of the {@link #KEYS}. */
  private static void write(
      DataSource ds, int n, int payloadBytes, int perTx, int writer, int writers)
      throws SQLException {
    int keys = Math.max(1, (KEYS - writer + writers - 1) / writers);
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      for (int done = 0; done < n; ) {
        int size = Math.min(perTx, n - done);
        List<OutboxMessage> batch = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
          batch.add(message("k" + (writer + ((done + i) % keys) * writers), payloadBytes));
        }
        OUTBOX.saveAll(c, batch);
        c.commit();
        done += size;
      }
    }
  }

  static OutboxMessage message(String key, int payloadBytes) {
    return OutboxMessage.builder()
        .aggregateType("order")
        .aggregateId(key)
        .type("OrderPlaced")
        .payload(payload(payloadBytes))
        .build();
  }

  /** Printable random bytes, so compression cannot shrink the payload to nothing. */
  static byte[] payload(int size) {
    byte[] b = new byte[size];
    ThreadLocalRandom r = ThreadLocalRandom.current();
    for (int i = 0; i < size; i++) {
      b[i] = (byte) ('a' + r.nextInt(26));
    }
    return b;
  }
}
