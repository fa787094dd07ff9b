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
 * The wake-up trigger of {@code V6__notify_at_commit.sql} on a real PostgreSQL: one notification
 * per committed transaction at most, none for a rollback, at most one per 20 ms slot, and a writer
 * without any grant on the trigger's clock sequence commits.
 */
class PostgresNotifyIT extends WriterFixture {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  /** Sent after the writes: it arrives after every notification of an earlier commit. */
  private static final String SENTINEL = "sentinel";

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
      outbox.saveAll(c, messages("many", 100));
      outbox.saveAll(c, messages("more", 3));
      assertThat(notificationsUntilSentinel()).as("nothing before the commit").isZero();
      c.commit();
    }
    assertThat(notificationsUntilSentinel()).isEqualTo(1);
  }

  @Test
  void aRolledBackTransactionAndARolledBackSavepointDoNotNotify() throws Exception {
    try (Connection c = begin()) {
      outbox.save(c, message("rolled-back"));
      c.rollback();
    }
    assertThat(notificationsUntilSentinel()).isZero();
    try (Connection c = begin()) {
      var savepoint = c.setSavepoint();
      outbox.save(c, message("undone"));
      c.rollback(savepoint);
      outbox.save(c, message("kept"));
      c.commit();
    }
    assertThat(notificationsUntilSentinel())
        .as("the savepoint's queued notification went with it; the row after it queued its own")
        .isEqualTo(1);
    assertThat(rows()).extracting(OutboxMessage::aggregateId).containsExactly("kept");
  }

  @Test
  void backToBackCommitsNotifyAtMostOncePerTwentyMillisecondSlot() throws Exception {
    int commits = 200;
    long started = System.nanoTime();
    try (Connection c = begin()) {
      for (int i = 0; i < commits; i++) {
        outbox.save(c, message("burst"));
        c.commit();
      }
    }
    long slots = (System.nanoTime() - started) / 20_000_000 + 2;
    int notified = notificationsUntilSentinel();
    assertThat(notified)
        .as("the first commit always notifies; then at most one per slot the loop spanned")
        .isBetween(1, (int) Math.min(commits, slots));
    assertThat(rows()).hasSize(commits);
  }

  @Test
  void aClockSteppedBackOrAheadDoesNotSilenceTheWakeUp() throws Exception {
    for (String at : List.of("1", "9000000000000")) {
      try (Connection c = connect();
          Statement st = c.createStatement()) {
        st.execute("SELECT setval('outbox_notify_clock', " + at + ")");
      }
      try (Connection c = begin()) {
        outbox.save(c, message("clock-" + at));
        c.commit();
      }
      assertThat(notificationsUntilSentinel()).as("clock at %s", at).isEqualTo(1);
    }
  }

  @Test
  void aWriterWithoutAGrantOnTheClockSequenceCommits() throws Exception {
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
      outbox.save(c, message("unprivileged"));
      c.commit();
    }
    assertThat(notificationsUntilSentinel()).isEqualTo(1);
    assertThat(rows()).extracting(OutboxMessage::aggregateId).containsExactly("unprivileged");
  }

  @Test
  void aWritersTemporaryObjectNamedLikeTheClockIsNotWhatTheTriggerUses() throws Exception {
    String role = "shadow_" + UUID.randomUUID().toString().substring(0, 8);
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      st.execute("CREATE ROLE " + role);
      st.execute("GRANT INSERT, SELECT ON outbox TO " + role);
      st.execute("GRANT USAGE ON SCHEMA public TO " + role);
      st.execute("SELECT setval('outbox_notify_clock', 1)");
    }
    try (Connection c = begin()) {
      try (Statement st = c.createStatement()) {
        st.execute("SET ROLE " + role);
        // Resolved first by an unqualified name: the security-definer function must not use it.
        st.execute("CREATE TEMPORARY VIEW outbox_notify_clock AS SELECT 1::bigint AS last_value");
      }
      outbox.save(c, message("shadowed"));
      c.commit();
    }
    assertThat(notificationsUntilSentinel()).isEqualTo(1);
    try (Connection c = connect();
        Statement st = c.createStatement();
        var rs = st.executeQuery("SELECT last_value FROM public.outbox_notify_clock")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).as("the real clock moved to the commit's slot").isGreaterThan(1);
    }
  }

  @Test
  void createIfMissingRunTwiceKeepsOneDeferredTrigger() throws Exception {
    try (Connection c = connect()) {
      OutboxSchema.createIfMissing(c, OutboxTable.defaults());
    }
    try (Connection c = connect();
        Statement st = c.createStatement();
        var rs =
            st.executeQuery(
                "SELECT tgdeferrable, tginitdeferred, p.prosecdef FROM pg_trigger t"
                    + " JOIN pg_proc p ON p.oid = t.tgfoid"
                    + " WHERE t.tgrelid = 'outbox'::regclass AND NOT t.tgisinternal")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getBoolean(1)).isTrue();
      assertThat(rs.getBoolean(2)).isTrue();
      assertThat(rs.getBoolean(3)).as("security definer").isTrue();
      assertThat(rs.next()).as("one trigger").isFalse();
    }
    try (Connection c = begin()) {
      outbox.save(c, message("after-rerun"));
      c.commit();
    }
    assertThat(notificationsUntilSentinel()).isEqualTo(1);
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
