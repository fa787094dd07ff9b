package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import dev.outboxrelay.servers.PostgresServer;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * {@code replay --follow} counts the replay's own rows still pending: another key's backlog that
 * drains meanwhile does not make it report the replayed rows as published (it used to count from
 * the table's backlog and exit 0 early).
 */
class DaemonReplayFollowIT {

  @Test
  void anotherKeysBacklogDrainingDoesNotFinishTheFollow() throws Exception {
    PostgresServer pg = PostgresServer.shared();
    try (HikariDataSource ds = pg.dataSource(pg.createDatabase(), 2)) {
      try (Connection c = ds.getConnection()) {
        OutboxSchema.createIfMissing(c, OutboxTable.defaults());
        c.setAutoCommit(false);
        for (String key : new String[] {"a", "a", "b", "b", "b"}) {
          Outbox.builder().build().save(c, message(key));
        }
        c.commit();
      }
      sql(ds, "UPDATE outbox SET published_at = now() WHERE aggregateid = 'a'");
      assertThat(OutboxAdmin.of(ds, OutboxTable.defaults()).replayKey("a")).isEqualTo(2);
      ReplayedPending pending = new ReplayedPending(ds, OutboxTable.defaults(), null, "a", null);
      StringWriter text = new StringWriter();
      PrintWriter out = new PrintWriter(text);

      // Key b's three rows go out while both replayed rows of key a are still pending.
      sql(ds, "UPDATE outbox SET published_at = now() WHERE aggregateid = 'b'");
      CompletableFuture<Boolean> follow =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return ReplayFollow.follow(pending::count, "orders", 2, out);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return false;
                }
              });
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> text.toString().contains("0 of 2 published again (2 still pending)"));
      assertThat(follow).isNotDone();

      sql(ds, "UPDATE outbox SET published_at = now() WHERE aggregateid = 'a'");
      assertThat(follow.get(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      assertThat(text.toString())
          .contains("replay orders: 2 of 2 published again (0 still pending)")
          .doesNotContain("1 of 2");
    }
  }

  private static OutboxMessage message(String key) {
    return OutboxMessage.builder()
        .aggregateType("order")
        .aggregateId(key)
        .type("OrderPlaced")
        .payload("{}")
        .build();
  }

  private static void sql(HikariDataSource ds, String statement) throws Exception {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      st.execute(statement);
    }
  }
}
