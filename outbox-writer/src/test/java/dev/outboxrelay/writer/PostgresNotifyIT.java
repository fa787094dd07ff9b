package dev.outboxrelay.writer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The writer's wake-up on a real PostgreSQL: {@code save} sends {@code pg_notify} on the table's
 * channel in the caller's transaction, at most once per {@link OutboxBuilder#wakeUpInterval}, so it
 * arrives at the commit and never for a rollback; V8 leaves no trigger on the table.
 */
class PostgresNotifyIT extends WriterFixture {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  /** Sent after the writes: it arrives after every notification of an earlier commit. */
  private static final String SENTINEL = "sentinel";

  /** Every save may notify: what the interval lets through is tested apart. */
  private final Outbox everySave =
      Outbox.builder().wakeUpInterval(java.time.Duration.ofNanos(1)).build();

  private Connection listener;

  @Override
  DatabaseServer server() {
    return DB.server();
  }

  @BeforeEach
  void listen() throws SQLException {
    listener = connect();
    try (Statement st = listener.createStatement()) {
      st.execute("LISTEN \"outbox\"");
      st.execute("LISTEN " + SENTINEL);
    }
  }

  @AfterEach
  void closeListener() throws SQLException {
    listener.close();
  }

  @Test
  void aTransactionOfManyRowsAndStatementsNotifiesOnceAtCommit() throws Exception {
    try (Connection c = begin()) {
      everySave.saveAll(c, messages("many", 100));
      everySave.saveAll(c, messages("more", 3));
      everySave.save(c, message("one"));
      assertThat(notificationsUntilSentinel()).as("nothing before the commit").isZero();
      c.commit();
    }
    assertThat(notificationsUntilSentinel())
        .as("PostgreSQL delivers a transaction's equal notifications once")
        .isEqualTo(1);
  }

  @Test
  void aRolledBackTransactionAndARolledBackSavepointDoNotNotify() throws Exception {
    try (Connection c = begin()) {
      everySave.save(c, message("rolled-back"));
      c.rollback();
    }
    assertThat(notificationsUntilSentinel()).isZero();
    try (Connection c = begin()) {
      var savepoint = c.setSavepoint();
      everySave.save(c, message("undone"));
      c.rollback(savepoint);
      assertThat(rows()).isEmpty();
      everySave.save(c, message("kept"));
      c.commit();
    }
    assertThat(notificationsUntilSentinel())
        .as("the savepoint's notification went with it; the save after it sent its own")
        .isEqualTo(1);
    assertThat(rows()).extracting(OutboxMessage::aggregateId).containsExactly("kept");
  }

  @Test
  void everyCommitNotifiesWhenTheIntervalHasPassed() throws Exception {
    for (int i = 0; i < 5; i++) {
      try (Connection c = begin()) {
        everySave.save(c, message("each-" + i));
        c.commit();
      }
    }
    assertThat(notificationsUntilSentinel()).isEqualTo(5);
  }

  @Test
  void backToBackCommitsNotifyAtMostOncePerTwentyMilliseconds() throws Exception {
    int commits = 200;
    long started = System.nanoTime();
    try (Connection c = begin()) {
      for (int i = 0; i < commits; i++) {
        outbox.save(c, message("burst"));
        c.commit();
      }
    }
    long intervals = (System.nanoTime() - started) / 20_000_000 + 1;
    int notified = notificationsUntilSentinel();
    assertThat(notified)
        .as("the first commit notifies; then at most one per 20 ms the loop spanned")
        .isBetween(1, (int) Math.min(commits, intervals));
    assertThat(rows()).hasSize(commits);
  }

  @Test
  void aWakeUpIntervalOfZeroNeverNotifies() throws Exception {
    Outbox silent = Outbox.builder().wakeUpInterval(java.time.Duration.ZERO).build();
    try (Connection c = begin()) {
      silent.save(c, message("silent"));
      c.commit();
    }
    assertThat(notificationsUntilSentinel()).isZero();
    assertThat(rows()).extracting(OutboxMessage::aggregateId).containsExactly("silent");
  }

  @Test
  void aWriterWithNoGrantBeyondTheTableNotifies() throws Exception {
    String role = "writer_" + UUID.randomUUID().toString().substring(0, 8);
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      st.execute("CREATE ROLE " + role);
      st.execute("GRANT INSERT, SELECT ON outbox TO " + role);
      st.execute("GRANT USAGE ON SCHEMA public TO " + role);
    }
    try (Connection c = begin()) {
      try (Statement st = c.createStatement()) {
        st.execute("SET ROLE " + role);
      }
      everySave.save(c, message("unprivileged"));
      c.commit();
    }
    assertThat(notificationsUntilSentinel()).isEqualTo(1);
    assertThat(rows()).extracting(OutboxMessage::aggregateId).containsExactly("unprivileged");
  }

  @Test
  void createIfMissingOnACurrentTableTakesNoLockThatWaitsForAReader() throws Exception {
    try (Connection reader = begin();
        Statement read = reader.createStatement()) {
      read.executeQuery("SELECT count(*) FROM outbox").close(); // ACCESS SHARE until it ends
      try (Connection c = connect();
          Statement st = c.createStatement()) {
        st.execute("SET lock_timeout = '2s'");
        OutboxSchema.createIfMissing(c, OutboxTable.defaults());
        assertThat(
                count(
                    st,
                    "SELECT count(*) FROM pg_trigger WHERE tgrelid = 'outbox'::regclass"
                        + " AND NOT tgisinternal"))
            .as("a fresh table has no trigger")
            .isZero();
      }
      reader.rollback();
    }
  }

  @Test
  void createIfMissingDropsTheV6TriggerOfAnUpgradedTable() throws Exception {
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      // The table as V6 left it: the deferred trigger, its functions and its clock sequence.
      for (String sql :
          OutboxSchema.render(
              dev.outboxrelay.core.SqlDialect.POSTGRESQL,
              OutboxTable.defaults(),
              OutboxSchema.NOTIFY_AT_COMMIT_MIGRATION)) {
        st.execute(sql);
      }
      assertThat(count(st, "SELECT count(*) FROM pg_trigger WHERE tgrelid = 'outbox'::regclass"))
          .isEqualTo(1);
    }
    for (int run = 0; run < 2; run++) {
      try (Connection c = connect()) {
        OutboxSchema.createIfMissing(c, OutboxTable.defaults());
      }
    }
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      assertThat(
              count(
                  st,
                  "SELECT count(*) FROM pg_trigger WHERE tgrelid = 'outbox'::regclass"
                      + " AND NOT tgisinternal"))
          .as("no trigger on the outbox table")
          .isZero();
      assertThat(
              count(
                  st,
                  "SELECT count(*) FROM pg_proc WHERE proname IN ('outbox_notify',"
                      + " 'outbox_notify_once')"))
          .isZero();
      assertThat(count(st, "SELECT count(*) FROM pg_class WHERE relname = 'outbox_notify_clock'"))
          .isZero();
    }
    try (Connection c = begin()) {
      everySave.save(c, message("after-upgrade"));
      c.commit();
    }
    assertThat(notificationsUntilSentinel()).as("the writer's own").isEqualTo(1);
  }

  private static long count(Statement st, String sql) throws SQLException {
    try (var rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static List<OutboxMessage> messages(String key, int n) {
    return IntStream.range(0, n).mapToObj(i -> message(key + "-" + i)).toList();
  }

  /** The outbox notifications delivered before a sentinel sent now. */
  private int notificationsUntilSentinel() throws SQLException {
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      st.execute("NOTIFY " + SENTINEL);
    }
    PGConnection pg = listener.unwrap(PGConnection.class);
    List<String> seen = new ArrayList<>();
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!seen.contains(SENTINEL)) {
      assertThat(System.nanoTime()).as("sentinel within 30 s").isLessThan(deadline);
      PGNotification[] notes = pg.getNotifications(1000);
      if (notes != null) {
        for (PGNotification n : notes) {
          seen.add(n.getName());
        }
      }
    }
    return (int) seen.stream().filter("outbox"::equals).count();
  }
}
