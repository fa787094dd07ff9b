package dev.outboxrelay.it.polling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.writer.Outbox;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** PostgreSQL-only features: strict order by transaction-id horizon, LISTEN/NOTIFY wake-up. */
class PostgresOnlyPollingIT extends PollingFixture {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }

  @Test
  void strictOrderHoldsALaterRowUntilTheEarlierTransactionEnds() throws Exception {
    started(relay("strict").publisher(kafka()).strictOrder(true).build());
    List<OutboxMessage> inserted = List.of(message("inverted", 1), message("inverted", 2));
    assertThat(commitInverted("inverted", inserted, true)).containsExactlyElementsOf(ids(inserted));
  }

  @Test
  void withoutStrictOrderAnInvertedCommitGoesOutInCommitOrder() throws Exception {
    started(relay("lenient").publisher(kafka()).build());
    List<OutboxMessage> inserted = List.of(message("lenient", 1), message("lenient", 2));
    assertThat(commitInverted("lenient", inserted, false))
        .containsExactly(inserted.get(1).id(), inserted.get(0).id());
  }

  /** T1 inserts first and commits last; returns the ids in the order they reached Kafka. */
  private List<UUID> commitInverted(String key, List<OutboxMessage> inserted, boolean strict)
      throws Exception {
    try (Connection t1 = dataSource.getConnection();
        Connection t2 = dataSource.getConnection()) {
      t1.setAutoCommit(false);
      t2.setAutoCommit(false);
      // A real inversion needs a writer without key order (with it, T2's save waits for T1).
      Outbox unordered = Outbox.builder().keyOrder(false).build();
      unordered.save(t1, inserted.get(0));
      unordered.save(t2, inserted.get(1));
      t2.commit();
      if (strict) { // held back while the older transaction T1 is open
        await()
            .during(Duration.ofMillis(1500))
            .atMost(Duration.ofSeconds(5))
            .until(() -> receivedIds(key).isEmpty());
      } else { // sent at once, ahead of the row T1 inserted earlier
        await().atMost(Duration.ofSeconds(10)).until(() -> receivedIds(key).size() == 1);
      }
      t1.commit();
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds(key).size() == 2);
    return receivedIds(key);
  }

  @Test
  void notifyWakesAnIdleRelayLongBeforeItsPollInterval() throws Exception {
    PollingRelay relay =
        started(
            relay("notified")
                .publisher(kafka())
                // Lease renewal claims too, every third of the lease: keep both far off.
                .leaseDuration(Duration.ofMinutes(5))
                .pollInterval(Duration.ofMinutes(5))
                .build());
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                !relay.ownedBuckets().isEmpty()
                    && count(
                            "SELECT COUNT(*) FROM pg_stat_activity WHERE query = 'LISTEN \"outbox\"'")
                        == 1);
    List<OutboxMessage> sent = commit("wake", 1);
    await().atMost(Duration.ofSeconds(10)).until(() -> receivedIds("wake").size() == 1);
    assertThat(receivedIds("wake")).containsExactlyElementsOf(ids(sent));
  }

  private static OutboxMessage message(String key, int n) {
    return OutboxMessage.builder()
        .aggregateType("order")
        .aggregateId(key)
        .type("Changed")
        .payload("{\"n\":" + n + "}")
        .build();
  }
}
