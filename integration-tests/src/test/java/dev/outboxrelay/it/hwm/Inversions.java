package dev.outboxrelay.it.hwm;

import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * Same-key transactions that try to commit in the inverse order of their inserts: T1 saves key K,
 * T2 saves K and commits, then T1 commits. Without key order T2 really commits first (T1's row has
 * the lower seq but commits last); with key order T2 waits on T1's key lock, so it cannot.
 */
final class Inversions {
  static final int ROUNDS = 10;

  private Inversions() {}

  /**
   * Runs the rounds over two keys; returns the ids of every committed message. Without key order
   * and with {@code secondFirst}, T1 commits only once T2's message was applied, so a relay that
   * publishes in commit order certainly delivers the inversion ({@code [seq n+1, seq n]}).
   */
  static List<String> run(DataSource ds, Outbox writer, boolean keyOrder, boolean secondFirst)
      throws Exception {
    List<String> committed = warmUp(ds, writer);
    for (int round = 0; round < ROUNDS; round++) {
      String key = "k-" + (round % 2);
      OutboxMessage first = message(key);
      OutboxMessage second = message(key);
      try (Connection t1 = ds.getConnection()) {
        t1.setAutoCommit(false);
        writer.save(t1, first);
        CompletableFuture<Void> t2 = CompletableFuture.runAsync(() -> save(ds, writer, second));
        if (keyOrder) {
          // T2 tries to commit first but waits on T1's key lock until T1 commits.
          await()
              .during(Duration.ofMillis(100))
              .atMost(Duration.ofSeconds(5))
              .until(() -> !t2.isDone());
        } else {
          t2.get(); // T2, inserted second, commits first: the inversion
          if (secondFirst) {
            String id = second.id().toString();
            await().atMost(Duration.ofSeconds(30)).until(() -> effects(ds).contains(id));
          }
        }
        t1.commit();
        t2.get();
      }
      committed.add(first.id().toString());
      committed.add(second.id().toString());
    }
    return committed;
  }

  /**
   * The late write's rounds: T1 saves K into an {@link OutboxBuffer}, T2 saves K and commits
   * without waiting (T1 holds no lock yet), then T1 flushes and commits. T1's row is drawn after
   * T2's commit, so seq follows commit order; returns the ids of every committed message.
   */
  static List<String> runLate(DataSource ds, Outbox writer) throws Exception {
    List<String> committed = warmUp(ds, writer);
    for (int round = 0; round < ROUNDS; round++) {
      OutboxMessage first = message("k-" + (round % 2));
      OutboxMessage second = message("k-" + (round % 2));
      try (Connection t1 = ds.getConnection()) {
        t1.setAutoCommit(false);
        OutboxBuffer buffer = writer.buffer();
        buffer.save(first);
        CompletableFuture.runAsync(() -> save(ds, writer, second)).get(10, TimeUnit.SECONDS);
        buffer.flush(t1);
        t1.commit();
      }
      committed.add(first.id().toString());
      committed.add(second.id().toString());
    }
    return committed;
  }

  /**
   * The relay is live (a CDC relay may still be starting, e.g. its catch-up of the table) before T1
   * holds a row open: the inversion is then judged on the running stream. Returns the list of
   * committed ids, the warm-up's first.
   */
  private static List<String> warmUp(DataSource ds, Outbox writer) {
    List<String> committed = new ArrayList<>();
    OutboxMessage warmUp = message("warm-up");
    save(ds, writer, warmUp);
    committed.add(warmUp.id().toString());
    await().atMost(Duration.ofSeconds(60)).until(() -> effects(ds).contains(committed.get(0)));
    return committed;
  }

  static OutboxMessage message(String key) {
    return OutboxMessage.builder()
        .aggregateType("order")
        .aggregateId(key)
        .type("OrderChanged")
        .payload("{}")
        .build();
  }

  private static void save(DataSource ds, Outbox writer, OutboxMessage m) {
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      writer.save(c, m);
      c.commit();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  static void createEffects(DataSource ds) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      st.execute(
          "CREATE TABLE effects (message_id VARCHAR(64) NOT NULL)"); // no key: counts repeats
    }
  }

  static void effect(Connection c, String id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO effects VALUES (?)")) {
      ps.setString(1, id);
      ps.executeUpdate();
    }
  }

  /** Every applied message id, once per application. */
  static List<String> effects(DataSource ds) throws SQLException {
    List<String> ids = new ArrayList<>();
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT message_id FROM effects")) {
      while (rs.next()) {
        ids.add(rs.getString(1));
      }
    }
    return ids;
  }
}
