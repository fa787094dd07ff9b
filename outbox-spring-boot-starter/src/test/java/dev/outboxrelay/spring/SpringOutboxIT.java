package dev.outboxrelay.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import jakarta.persistence.EntityManager;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * SpringOutbox.save joins the current transaction of Spring Boot's JDBC and JPA transaction
 * managers on a real PostgreSQL: the row commits and rolls back with the business write.
 */
class SpringOutboxIT {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  ApplicationContextRunner runner(boolean jpa) {
    return runner(DB.server(), jpa);
  }

  /** The outbox on a fresh database of {@code server}, with Boot's JDBC (and JPA) wiring. */
  static ApplicationContextRunner runner(DatabaseServer server, boolean jpa) {
    String db = server.createDatabase();
    AutoConfigurations base =
        AutoConfigurations.of(
            DataSourceAutoConfiguration.class,
            DataSourceTransactionManagerAutoConfiguration.class,
            JdbcTemplateAutoConfiguration.class,
            TransactionAutoConfiguration.class,
            OutboxAutoConfiguration.class);
    return new ApplicationContextRunner()
        .withConfiguration(base)
        .withConfiguration(jpa ? AutoConfigurations.of(HibernateJpaAutoConfiguration.class) : base)
        .withPropertyValues(
            "spring.datasource.url=" + server.jdbcUrl(db),
            "spring.datasource.username=" + server.user(),
            "spring.datasource.password=" + server.password(),
            "outbox.schema.create=true");
  }

  @Test
  void jdbcTransactionCommitsAndRollsBackTheRowWithTheBusinessWrite() {
    runner(false)
        .run(
            c -> {
              assertThat(c.getBean(PlatformTransactionManager.class))
                  .isInstanceOf(JdbcTransactionManager.class);
              JdbcTemplate jdbc = c.getBean(JdbcTemplate.class);
              jdbc.execute("CREATE TABLE orders (id VARCHAR(64) PRIMARY KEY)");
              assertCommitAndRollback(c, id -> jdbc.update("INSERT INTO orders VALUES (?)", id));
            });
  }

  @Test
  void jpaTransactionCommitsAndRollsBackTheRowWithTheBusinessWrite() {
    runner(true)
        .run(
            c -> {
              assertThat(c.getBean(PlatformTransactionManager.class))
                  .isInstanceOf(JpaTransactionManager.class);
              c.getBean(JdbcTemplate.class)
                  .execute("CREATE TABLE orders (id VARCHAR(64) PRIMARY KEY)");
              EntityManager em = c.getBean(EntityManager.class);
              assertCommitAndRollback(
                  c,
                  id ->
                      em.createNativeQuery("INSERT INTO orders VALUES (?1)")
                          .setParameter(1, id)
                          .executeUpdate());
            });
  }

  @Test
  void outsideATransactionSaveIsRefusedAndSaysHowToAllowIt() {
    runner(false)
        .run(
            c -> {
              SpringOutbox outbox = c.getBean(SpringOutbox.class);
              assertThatThrownBy(() -> outbox.save(message("k")))
                  .isInstanceOf(OutboxException.class)
                  .hasMessageContaining("inside a Spring-managed transaction")
                  .hasMessageContaining("outbox.writer.require-transaction=false");
              assertThat(rows(c, "k")).isZero();
            });
  }

  @Test
  void withoutRequireTransactionSaveCommitsOnItsOwn() {
    runner(false)
        .withPropertyValues("outbox.writer.require-transaction=false")
        .run(
            c -> {
              c.getBean(SpringOutbox.class).save(message("alone"));
              assertThat(rows(c, "alone")).isOne();
            });
  }

  private static void assertCommitAndRollback(ApplicationContext c, BusinessWrite write) {
    SpringOutbox outbox = c.getBean(SpringOutbox.class);
    TransactionTemplate tx = new TransactionTemplate(c.getBean(PlatformTransactionManager.class));
    String committed = "c-" + UUID.randomUUID();
    tx.executeWithoutResult(
        s -> {
          write.insert(committed);
          outbox.save(message(committed));
        });
    String rolledBack = "r-" + UUID.randomUUID();
    assertThatThrownBy(
            () ->
                tx.executeWithoutResult(
                    s -> {
                      write.insert(rolledBack);
                      outbox.save(message(rolledBack));
                      throw new IllegalStateException("business rule failed");
                    }))
        .hasMessage("business rule failed");
    JdbcTemplate jdbc = c.getBean(JdbcTemplate.class);
    assertThat(rows(c, committed)).isOne();
    assertThat(
            jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE id = ?", Long.class, committed))
        .isOne();
    assertThat(rows(c, rolledBack)).isZero();
    assertThat(
            jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE id = ?", Long.class, rolledBack))
        .isZero();
  }

  interface BusinessWrite {
    void insert(String id);
  }

  static OutboxMessage message(String key) {
    return OutboxMessage.builder()
        .aggregateType("order")
        .aggregateId(key)
        .type("OrderPlaced")
        .payload("{}")
        .build();
  }

  static long rows(ApplicationContext c, String key) {
    return c.getBean(JdbcTemplate.class)
        .queryForObject("SELECT COUNT(*) FROM outbox WHERE aggregateid = ?", Long.class, key);
  }
}
