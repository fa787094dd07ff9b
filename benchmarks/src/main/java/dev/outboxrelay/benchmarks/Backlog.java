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
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      for (int done = 0; done < n; ) {
        int size = Math.min(perTx, n - done);
        List<OutboxMessage> batch = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
          batch.add(message("k" + ((done + i) % KEYS), payloadBytes));
        }
        OUTBOX.saveAll(c, batch);
        c.commit();
        done += size;
      }
    }
    return (System.nanoTime() - t0) / 1_000_000;
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
