package dev.outboxrelay.it.polling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.it.KafkaRelayContract;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The relay contract on a table {@code "group"."order"}, reserved words both, and its NOTIFY
 * wake-up.
 */
class ReservedWordPostgresPollingKafkaIT extends KafkaRelayContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();
  static final OutboxTable ORDER = OutboxTable.builder().schema("group").name("order").build();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }

  @Override
  protected OutboxTable table() {
    return ORDER;
  }

  @Override
  protected void createOutbox(Connection c) {
    try (Statement st = c.createStatement()) {
      st.execute("CREATE SCHEMA \"group\"");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    super.createOutbox(c);
  }

  /**
   * Poll interval and lease renewal (which also claims) are minutes apart, so a message that
   * arrives in seconds was woken by the writer's NOTIFY on the channel the relay LISTENs to.
   */
  @Test
  void notifyOnTheReservedWordTableWakesAnIdleRelay() throws Exception {
    try (Publisher publisher = newPublisher(topics);
        PollingRelay relay =
            PollingRelay.builder()
                .name("notified")
                .dataSource(dataSource)
                .table(ORDER)
                .publisher(publisher)
                .leaseDuration(Duration.ofMinutes(5))
                .pollInterval(Duration.ofMinutes(5))
                .build()
                .start()) {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> !relay.ownedBuckets().isEmpty() && listeners() == 1);
      OutboxMessage m =
          OutboxMessage.builder()
              .aggregateType("order")
              .aggregateId("wake")
              .type("Changed")
              .payload("{}")
              .build();
      commit(List.of(m));
      await().atMost(Duration.ofSeconds(10)).until(() -> received().size() == 1);
      assertThat(received().get(0).id()).isEqualTo(m.id());
    }
  }

  /** Idle connections whose last statement was the quoted LISTEN, which therefore succeeded. */
  private int listeners() throws Exception {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT COUNT(*) FROM pg_stat_activity"
                    + " WHERE query = 'LISTEN \"order\"' AND state = 'idle'")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
