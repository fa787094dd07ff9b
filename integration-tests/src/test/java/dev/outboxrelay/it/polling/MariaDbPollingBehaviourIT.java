package dev.outboxrelay.it.polling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.relay.engine.Retention;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MariaDbPollingBehaviourIT extends PollingBehaviour {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.mariadb();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }

  /**
   * A table made before V7, keyed by id with seq unique, stays so until an operator clusters it by
   * seq: the relay reads the table's keys and names the rows it marks and purges by id through the
   * primary key, as before. (Every other MariaDB test runs on the seq-keyed table {@code
   * createIfMissing} makes.)
   */
  @Test
  void aTableStillKeyedByIdIsPublishedMarkedAndPurged() throws Exception {
    execute(
        "ALTER TABLE outbox DROP PRIMARY KEY, ADD PRIMARY KEY (id), ADD UNIQUE KEY seq (seq),"
            + " DROP INDEX outbox_id");
    assertThat(count(primaryKeyIs("id"))).isEqualTo(1);
    started(
        relay("by-id")
            .publisher(kafka())
            .retention(Retention.keepFor(Duration.ofMillis(300)))
            .build());
    List<OutboxMessage> sent = commit("by-id", 30);
    await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds("by-id").size() >= 30);
    // Marked (published_at set) and then purged: both statements found the rows by id.
    await().atMost(Duration.ofSeconds(30)).until(() -> count("SELECT COUNT(*) FROM outbox") == 0);
    assertThat(receivedIds("by-id")).containsExactlyElementsOf(ids(sent));
  }

  @Test
  void theTableCreateIfMissingMakesIsKeyedBySeq() throws Exception {
    assertThat(count(primaryKeyIs("seq"))).isEqualTo(1);
  }

  private static String primaryKeyIs(String column) {
    return "SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE()"
        + " AND TABLE_NAME = 'outbox' AND INDEX_NAME = 'PRIMARY' AND COLUMN_NAME = '"
        + column
        + "'";
  }
}
