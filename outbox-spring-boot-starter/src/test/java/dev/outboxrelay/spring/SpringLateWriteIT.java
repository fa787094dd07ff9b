package dev.outboxrelay.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.ContendedWriters;
import dev.outboxrelay.testing.DatabaseExtension;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * SpringOutbox writes a transaction's messages when it commits: nothing before, nothing for a
 * rollback or a rolled-back nested transaction, and writers saving many keys in random order abort
 * no transaction, on real PostgreSQL and MariaDB.
 */
class SpringLateWriteIT {
  @RegisterExtension static final DatabaseExtension PG = DatabaseExtension.postgres();
  @RegisterExtension static final DatabaseExtension MARIADB = DatabaseExtension.mariadb();

  ApplicationContextRunner runner(DatabaseServer server) {
    return SpringOutboxIT.runner(server, false)
        .withPropertyValues("spring.datasource.hikari.maximum-pool-size=16");
  }

  @ParameterizedTest
  @ValueSource(strings = {"postgresql", "mariadb"})
  void writersSavingManyKeysInRandomOrderAbortNothingAndKeepEachKeysSeqInCommitOrder(String db) {
    DatabaseServer server = db.equals("postgresql") ? PG.server() : MARIADB.server();
    runner(server)
        .run(
            c -> {
              JdbcTemplate jdbc = c.getBean(JdbcTemplate.class);
              jdbc.execute("CREATE TABLE orders (id VARCHAR(64) PRIMARY KEY)");
              SpringOutbox outbox = c.getBean(SpringOutbox.class);
              TransactionTemplate tx = tx(c, TransactionDefinition.PROPAGATION_REQUIRED);
              var source = c.getBean(javax.sql.DataSource.class);
              ContendedWriters.Result r =
                  new ContendedWriters(source::getConnection, 40)
                      .run(
                          10,
                          10,
                          messages ->
                              tx.executeWithoutResult(
                                  s -> {
                                    for (OutboxMessage m : messages) {
                                      outbox.save(m);
                                      jdbc.update(
                                          "INSERT INTO orders VALUES (?)",
                                          UUID.randomUUID().toString());
                                    }
                                  }));
              assertThat(r.failures()).as("transactions aborted").isEmpty();
              assertThat(r.regressions()).as("a key's seq seen below one already seen").isEmpty();
              assertThat(count(c)).isEqualTo(r.committedMessages());
              List<OutboxMessage> rows =
                  jdbc.query(
                      "SELECT aggregateid, payload FROM outbox ORDER BY seq",
                      (rs, i) -> message(rs.getString(1), rs.getBytes(2)));
              assertThat(ContendedWriters.outOfSaveOrder(rows)).isEmpty();
            });
  }

  @Test
  void theRowIsWrittenWhenTheTransactionCommitsNotAtSave() {
    runner(PG.server())
        .run(
            c -> {
              SpringOutbox outbox = c.getBean(SpringOutbox.class);
              tx(c, TransactionDefinition.PROPAGATION_REQUIRED)
                  .executeWithoutResult(
                      s -> {
                        outbox.save(message("k", new byte[] {1}));
                        assertThat(count(c)).as("before the commit").isZero();
                      });
              assertThat(count(c)).isOne();
            });
  }

  @Test
  void aRolledBackNestedTransactionWritesNothingOfItsOwn() {
    runner(MARIADB.server())
        .run(
            c -> {
              SpringOutbox outbox = c.getBean(SpringOutbox.class);
              OutboxMessage kept = message("outer", new byte[] {1});
              tx(c, TransactionDefinition.PROPAGATION_REQUIRED)
                  .executeWithoutResult(
                      s -> {
                        outbox.save(kept);
                        tx(c, TransactionDefinition.PROPAGATION_NESTED)
                            .executeWithoutResult(
                                n -> {
                                  outbox.save(message("inner", new byte[] {2}));
                                  n.setRollbackOnly();
                                });
                      });
              assertThat(keys(c)).containsExactly("outer");
            });
  }

  @Test
  void aRequiresNewTransactionWritesItsOwnMessagesAtItsOwnCommit() {
    runner(PG.server())
        .run(
            c -> {
              SpringOutbox outbox = c.getBean(SpringOutbox.class);
              assertThatThrownBy(
                      () ->
                          tx(c, TransactionDefinition.PROPAGATION_REQUIRED)
                              .executeWithoutResult(
                                  s -> {
                                    outbox.save(message("outer", new byte[] {1}));
                                    tx(c, TransactionDefinition.PROPAGATION_REQUIRES_NEW)
                                        .executeWithoutResult(
                                            n -> outbox.save(message("inner", new byte[] {2})));
                                    assertThat(keys(c)).containsExactly("inner");
                                    throw new IllegalStateException("outer fails");
                                  }))
                  .hasMessage("outer fails");
              assertThat(keys(c)).containsExactly("inner");
            });
  }

  @Test
  void withWriteAtCommitOffTheTransactionReadsItsOwnRow() {
    runner(PG.server())
        .withPropertyValues("outbox.writer.write-at-commit=false")
        .run(
            c -> {
              SpringOutbox outbox = c.getBean(SpringOutbox.class);
              JdbcTemplate jdbc = c.getBean(JdbcTemplate.class);
              tx(c, TransactionDefinition.PROPAGATION_REQUIRED)
                  .executeWithoutResult(
                      s -> {
                        outbox.save(message("k", new byte[] {1}));
                        assertThat(
                                jdbc.queryForObject("SELECT COUNT(*) FROM outbox", Integer.class))
                            .isOne();
                      });
            });
  }

  private static TransactionTemplate tx(ApplicationContext c, int propagation) {
    TransactionTemplate tx = new TransactionTemplate(c.getBean(PlatformTransactionManager.class));
    tx.setPropagationBehavior(propagation);
    return tx;
  }

  /** Rows committed, read on a connection of its own (not the transaction's). */
  private static int count(ApplicationContext c) {
    try (var conn = c.getBean(javax.sql.DataSource.class).getConnection();
        var st = conn.createStatement();
        var rs = st.executeQuery("SELECT COUNT(*) FROM outbox")) {
      rs.next();
      return rs.getInt(1);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<String> keys(ApplicationContext c) {
    List<String> keys = new java.util.ArrayList<>();
    try (var conn = c.getBean(javax.sql.DataSource.class).getConnection();
        var st = conn.createStatement();
        var rs = st.executeQuery("SELECT aggregateid FROM outbox ORDER BY seq")) {
      while (rs.next()) {
        keys.add(rs.getString(1));
      }
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
    return keys;
  }

  private static OutboxMessage message(String key, byte[] payload) {
    return OutboxMessage.builder()
        .aggregateType("order")
        .aggregateId(key)
        .type("OrderPlaced")
        .payload(payload)
        .build();
  }
}
