package dev.outboxrelay.it.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.RelayState.Phase;
import dev.outboxrelay.it.ErrorLog;
import dev.outboxrelay.relay.cdc.CdcRelay;
import dev.outboxrelay.relay.cdc.CdcStartException;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresCdcBehaviourIT extends CdcBehaviour {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }

  @Override
  void losePosition(String relayName) throws Exception {
    // The closed relay's walsender ends a moment after its connection: the slot is in use till
    // then.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                count(
                        "SELECT COUNT(*) FROM pg_replication_slots WHERE active AND slot_name = '"
                            + relayName
                            + "'")
                    == 0);
    execute("SELECT pg_drop_replication_slot('" + relayName + "')");
  }

  /**
   * The server ends the streaming relay's lock session (a failover, an administrator): the relay
   * stops itself, and its close, which releases the lock with a statement first, does not wait on
   * the dead connection; the instance standing by takes over and relays what comes next. PostgreSQL
   * only: {@code pg_terminate_backend} ends exactly the session holding the lock.
   */
  @Test
  void aRelayWhoseLockSessionEndsStopsItselfAndTheStandbyTakesOver() throws Exception {
    StreamingAndStandby relays = streamingAndStandby();
    CdcRelay first = relays.streaming();
    CdcRelay second = relays.standby();
    execute(
        "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted"
            + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())");
    await().atMost(Duration.ofSeconds(30)).until(() -> first.state().phase() == Phase.FAILED);
    assertThat(first.state().reason()).contains("lost the source lock connection");
    await().atMost(Duration.ofSeconds(60)).until(() -> second.state().phase() == Phase.ACTIVE);
    commit("after-lock-loss", 1);
    await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds("after-lock-loss").size() == 1);
  }

  /**
   * The standby's takeover meets a database error: here another session holds a SHARE lock on the
   * offsets table, so the check of the stores' writes gives up after its 10 s lock wait. The relay
   * stands by again and takes over once the lock is gone, rather than giving up for good (FAILED)
   * and leaving the source without a reader. PostgreSQL only: a SHARE lock lets the position's
   * check read the table and stops the check's writes, a lock MariaDB has no statement for.
   */
  @Test
  void aStandbyWhoseTakeoverFailsStandsByAgainAndTakesOverLater() throws Exception {
    StreamingAndStandby relays = streamingAndStandby();
    CdcRelay second = relays.standby();
    try (ErrorLog log = ErrorLog.capture();
        java.sql.Connection locker = dataSource.getConnection()) {
      locker.setAutoCommit(false);
      try (java.sql.Statement st = locker.createStatement()) {
        st.execute("LOCK TABLE outbox_cdc_offsets IN SHARE MODE");
      }
      // The streaming relay's store waits on the lock too: end its lock session instead of
      // aborting it here, and it stops itself in the background.
      execute(
          "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted"
              + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())");
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> !log.containing("could not take over, standing by again").isEmpty());
      assertThat(second.state().phase()).isNotEqualTo(Phase.ACTIVE);
      locker.rollback();
    }
    await().atMost(Duration.ofSeconds(60)).until(() -> second.state().phase() == Phase.ACTIVE);
    commit("after-retried-takeover", 1);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> receivedIds("after-retried-takeover").size() == 1);
  }

  /**
   * The relay publishes INSERTs only, so its publication sends nothing else: without that, every
   * DELETE of a published row would be decoded, sent and converted too. A publication left by an
   * earlier version, which published everything, is altered at the next start.
   */
  @Test
  void itsPublicationSendsInsertsOnly() throws Exception {
    String name = "cdc_" + dataSource.getPoolName();
    String publishes =
        "SELECT COUNT(*) FROM pg_publication WHERE pubname = '"
            + name
            + "' AND pubinsert AND NOT (pubupdate OR pubdelete OR pubtruncate)";
    CdcRelay relay = started(relay());
    commit("inserts-only", 1);
    await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds("inserts-only").size() == 1);
    assertThat(count(publishes)).isEqualTo(1);
    relay.close();
    execute("ALTER PUBLICATION \"" + name + "\" SET (publish = 'insert, update, delete')");
    assertThat(count(publishes)).isZero();
    started(relay());
    assertThat(count(publishes)).isEqualTo(1);
    commit("inserts-only", 1);
    await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds("inserts-only").size() == 2);
  }

  @Override
  void grantStoreWrites(String user) throws Exception {
    execute("GRANT SELECT, INSERT, DELETE ON outbox_cdc_offsets TO " + user);
    execute("GRANT INSERT ON outbox_cdc_published TO " + user);
    execute("GRANT USAGE ON SEQUENCE outbox_cdc_published_batch_seq TO " + user);
  }

  @Override
  String grantee(String user) {
    return user;
  }

  @Override
  void revokeCreate(String user) throws Exception {
    execute("REVOKE CREATE ON SCHEMA public FROM " + user);
  }

  /** A login with replication rights that may read the outbox, and its relay's publication. */
  private String reader(String relayName) throws Exception {
    String role = "reader_" + dataSource.getPoolName().toLowerCase(java.util.Locale.ROOT);
    execute("CREATE ROLE " + role + " LOGIN REPLICATION");
    execute("GRANT USAGE, CREATE ON SCHEMA public TO " + role);
    execute("GRANT SELECT ON outbox TO " + role);
    execute("CREATE PUBLICATION \"" + relayName + "\" FOR TABLE outbox");
    return role;
  }

  @Test
  void aSourceUserMustWriteWhatTheStoresWrite() throws Exception {
    aSourceUserMustWriteWhatTheStoresWrite(reader("cdc_" + dataSource.getPoolName()), null);
  }

  /**
   * INSERT on the published log granted, USAGE on the sequence its batch numbers come from not (a
   * DBA's easy slip): refused at start, naming the sequence as PostgreSQL names it.
   */
  @Test
  void aPublishedLogWhoseSequenceTheUserCannotUseIsRefusedNamingTheSequence() throws Exception {
    String role = reader("cdc_" + dataSource.getPoolName());
    execute("REVOKE CREATE ON SCHEMA public FROM " + role);
    started(relay()).close(); // the tables, made by their owner
    execute("GRANT SELECT, INSERT, DELETE ON outbox_cdc_offsets TO " + role);
    execute("GRANT INSERT ON outbox_cdc_published TO " + role);
    CdcRelay refused = relay().source(dataSource.getJdbcUrl(), role, null).build();
    closeables.add(refused);
    assertThatThrownBy(refused::start)
        .isInstanceOf(CdcStartException.class)
        .hasMessageContaining(
            "the source user '" + role + "' cannot write \"outbox_cdc_published\"")
        .hasMessageContaining(
            "grant it INSERT (and USAGE on its sequence public.outbox_cdc_published_batch_seq)");
    execute("GRANT USAGE ON SEQUENCE outbox_cdc_published_batch_seq TO " + role);
    started(relay().source(dataSource.getJdbcUrl(), role, null));
    commit("granted", 1);
    await().atMost(Duration.ofSeconds(60)).until(() -> receivedIds("granted").size() == 1);
  }

  /**
   * The database refuses the position's row for a reason other than a privilege (here a check
   * constraint; a full disk or a trigger would do the same): the save fails after one attempt, the
   * relay reads FAILED while it still publishes, and ACTIVE once the engine's next save (a batch or
   * a heartbeat) stores a position. Debezium 3.5's own retry ran such a statement again at once,
   * forever, on the store's only thread (debezium/dbz#2244): no save ever returned, and the relay
   * never read FAILED (tried: with that loop put back, this test timed out).
   */
  @Test
  void aPositionTheDatabaseRefusesIsReportedAndTriedAgainWithTheNextSave() throws Exception {
    CdcRelay relay = started(relay());
    commit("before", 1);
    await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds("before").size() == 1);
    execute(
        "ALTER TABLE outbox_cdc_offsets ADD CONSTRAINT refuse_positions"
            + " CHECK (record_insert_seq < 0) NOT VALID");
    commit("refused", 1);
    await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds("refused").size() == 1);
    await().atMost(Duration.ofSeconds(30)).until(() -> relay.state().phase() == Phase.FAILED);
    assertThat(relay.state().reason())
        .contains("cannot store its position")
        .contains("refuse_positions");
    execute("ALTER TABLE outbox_cdc_offsets DROP CONSTRAINT refuse_positions");
    await().atMost(Duration.ofSeconds(30)).until(() -> relay.state().phase() == Phase.ACTIVE);
  }

  /**
   * A publication its owner provisioned (publishing everything), read by a user that only has
   * replication rights and those its stores need: the relay cannot make it INSERT-only, says so,
   * and streams through it as it is.
   */
  @Test
  void aPublicationItsUserCannotAlterIsUsedAsProvisioned() throws Exception {
    String name = "cdc_prov_" + dataSource.getPoolName().toLowerCase(java.util.Locale.ROOT);
    String role = reader(name);
    CdcRelay refused = relay().name(name).source(dataSource.getJdbcUrl(), role, null).build();
    closeables.add(refused);
    assertThatThrownBy(refused::start).isInstanceOf(CdcStartException.class);
    grantStoreWrites(role);
    try (ErrorLog log = ErrorLog.capture()) {
      started(relay().name(name).source(dataSource.getJdbcUrl(), role, null));
      commit("provisioned", 1);
      await().atMost(Duration.ofSeconds(60)).until(() -> receivedIds("provisioned").size() == 1);
      assertThat(log.containing("cannot make publication " + name + " send INSERTs only"))
          .isNotEmpty();
    }
    assertThat(
            count(
                "SELECT COUNT(*) FROM pg_publication WHERE pubname = '" + name + "' AND pubdelete"))
        .isEqualTo(1);
  }

  /**
   * Embedded, the relay logs through the application's logging (here slf4j-simple, no masking
   * layout as in the daemon), and so does Debezium: its settings at start, and a failure of its
   * JDBC offset store (in 3.5 with every engine setting in the message when its configuration
   * fails). The password is in none of it, streaming or failing. PostgreSQL only: the test server's
   * trust authentication lets a password nobody else uses log in, so its absence from the log means
   * something; the stores and the engine are the same on MariaDB.
   */
  @Test
  void itsLogHoldsNoPasswordWhenStreamingNorWhenItsOffsetStoreFails() throws Exception {
    String password = "canary-" + UUID.randomUUID();
    try (ErrorLog log = ErrorLog.capture()) {
      CdcRelay streaming =
          relay().source(dataSource.getJdbcUrl(), dataSource.getUsername(), password).build();
      closeables.add(streaming);
      streaming.start();
      commit("logged", 1);
      await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds("logged").size() == 1);
      streaming.close();
      assertThat(log.containing("Starting PostgresConnectorTask"))
          .as("Debezium logged its settings")
          .isNotEmpty();
      assertThat(log.containing(password)).as("lines holding the password").isEmpty();
    }
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    CdcRelay relay =
        relay()
            .source(dataSource.getJdbcUrl(), dataSource.getUsername(), password)
            .debeziumProperties(
                Map.of(
                    "offset.storage.jdbc.connection.url",
                    "jdbc:postgresql://127.0.0.1:" + closedPort + "/none",
                    "offset.storage.jdbc.connection.retry.max.attempts",
                    "1",
                    "offset.storage.jdbc.connection.wait.retry.delay.ms",
                    "10"))
            .build();
    closeables.add(relay);
    try (ErrorLog log = ErrorLog.capture()) {
      assertThatThrownBy(relay::start)
          .isInstanceOf(CdcStartException.class)
          .hasMessageNotContaining(password);
      assertThat(log.containing("Engine has failed with"))
          .as("the engine logged the store's failure")
          .isNotEmpty();
      assertThat(log.containing(password)).as("lines holding the password").isEmpty();
    }
  }
}
