package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.BrokerCheck;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.daemon.config.ConfigLoader;
import dev.outboxrelay.daemon.config.RelayConfig;
import dev.outboxrelay.micrometer.ReconcileMeters;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import dev.outboxrelay.servers.PostgresServer;
import dev.outboxrelay.testing.BrokerReader;
import dev.outboxrelay.testing.ReceivedMessage;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The reconciliation ({@link ReconcileLoop} over the {@link BrokerCheck} the publisher's factory
 * offers) against a real PostgreSQL and a real broker: a row marked published that was never sent
 * is missing, counted, and republished when enabled; a discarded one is neither checked nor
 * missing; a sent one is checked and found. One subclass per broker, a few lines each.
 */
abstract class ReconcileContract {
  private final String prefix = "reconcile_" + UUID.randomUUID().toString().substring(0, 8) + "_";
  private final String topic = prefix + "order";

  /** The publisher section's {@code type} and {@code settings} (flow style), with the template. */
  protected abstract String publisher(String topicTemplate);

  protected abstract void createTopic(String topic);

  protected abstract BrokerReader reader();

  @Test
  void aPublishedRowTheBrokerLacksIsMissingCountedAndRepublishedButADiscardedOneIsNot()
      throws Exception {
    PostgresServer pg = PostgresServer.shared();
    String database = pg.createDatabase();
    createTopic(topic);
    RelayConfig quiet = relay(pg, database, false);
    RelayConfig republishing = relay(pg, database, true);
    try (HikariDataSource app = pg.dataSource(database, 2);
        BrokerReader reader = reader();
        BrokerCheck check = Wiring.brokerCheck(quiet, 0, "reconcile")) {
      try (Connection c = app.getConnection()) {
        OutboxSchema.createIfMissing(c, OutboxTable.defaults());
      }
      OutboxMessage sent = message("sent");
      OutboxMessage lost = message("lost");
      OutboxMessage discarded = message("discarded");
      save(app, List.of(sent, lost, discarded));
      try (Publisher publisher = Wiring.publisher(quiet, 0)) {
        List<PublishResult> r = publisher.publish(List.of(sent)).toCompletableFuture().join();
        assertThat(r.get(0).isAcknowledged()).as("%s", r).isTrue();
        // What a relay leaves behind with keep:, for all three; only "sent" reached the broker.
        markPublished(app, sent, lost, discarded);
        discard(app, discarded);
        OutboxAdmin admin = OutboxAdmin.of(app, OutboxTable.defaults());
        // The broker may index a message a moment after acknowledging it (reconcile.lag).
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    check
                        .present(
                            Map.of(topic, List.of(sent)), Instant.now().minusSeconds(600), l -> {})
                        .contains(sent.id()));

        ReconcileMeters meters = new ReconcileMeters("orders", "polling");
        ReconcileLoop reporting = loop(quiet, check, admin, publisher, meters);
        assertThat(reporting.runOnce()).extracting(OutboxMessage::id).containsExactly(lost.id());
        assertThat(meters.counts()).containsExactly(2, 1, 0, 0);
        assertThat(idsOn(reader)).containsExactly(sent.id());

        ReconcileLoop repairing = loop(republishing, check, admin, publisher, meters);
        assertThat(repairing.runOnce()).extracting(OutboxMessage::id).containsExactly(lost.id());
        assertThat(meters.counts()).containsExactly(4, 2, 1, 0);
        await().atMost(Duration.ofSeconds(30)).until(() -> idsOn(reader).contains(lost.id()));

        await().atMost(Duration.ofSeconds(30)).until(() -> repairing.runOnce().isEmpty());
        assertThat(meters.counts()[1]).as("missing, counted once per run that saw it").isEqualTo(2);
        assertThat(meters.counts()[2]).as("republished").isEqualTo(1);
        assertThat(idsOn(reader)).containsExactlyInAnyOrder(sent.id(), lost.id());
      }
    }
  }

  private ReconcileLoop loop(
      RelayConfig relay,
      BrokerCheck check,
      OutboxAdmin admin,
      Publisher publisher,
      ReconcileMeters meters) {
    return new ReconcileLoop(relay, check, admin, publisher, meters, Clock.systemUTC());
  }

  private List<UUID> idsOn(BrokerReader reader) {
    return reader.readAll(topic).stream().map(ReceivedMessage::id).toList();
  }

  /** Through the daemon's own loader, as a file would give it. */
  private RelayConfig relay(PostgresServer pg, String database, boolean republish) {
    String yaml =
        "relays:\n"
            + "  - name: orders\n"
            + "    database: {url: '"
            + pg.jdbcUrl(database)
            + "', username: "
            + pg.user()
            + "}\n"
            + "    retention: keep:1h\n"
            + "    reconcile: {enabled: true, interval: 1m, window: 10m, lag: 1ms, republish: "
            + republish
            + "}\n"
            + "    publisher: "
            + publisher(prefix + "${aggregatetype}")
            + "\n";
    return ConfigLoader.parse(yaml, Map.of()).relays().get(0);
  }

  private static OutboxMessage message(String key) {
    return OutboxMessage.builder()
        .aggregateType("order")
        .aggregateId("reconcile-" + key)
        .type("OrderPlaced")
        .payload("{\"key\":\"" + key + "\"}")
        .build();
  }

  private static void save(HikariDataSource app, List<OutboxMessage> messages) throws Exception {
    try (Connection c = app.getConnection()) {
      c.setAutoCommit(false);
      Outbox.builder().build().saveAll(c, messages);
      c.commit();
    }
  }

  private static void markPublished(HikariDataSource app, OutboxMessage... messages)
      throws Exception {
    try (Connection c = app.getConnection();
        PreparedStatement ps =
            c.prepareStatement("UPDATE outbox SET published_at = now() WHERE id = ?")) {
      for (OutboxMessage m : messages) {
        ps.setObject(1, m.id());
        assertThat(ps.executeUpdate()).isEqualTo(1);
      }
    }
  }

  /** The record {@code parked discard} leaves (the relay's part of it is tested elsewhere). */
  private static void discard(HikariDataSource app, OutboxMessage m) throws Exception {
    try (Connection c = app.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO outbox_discarded (message_id, aggregateid, reason, discarded_by)"
                    + " VALUES (?, ?, 'rejected by the broker', 'reconcile-test')")) {
      ps.setObject(1, m.id());
      ps.setString(2, m.aggregateId());
      ps.executeUpdate();
    }
  }
}
