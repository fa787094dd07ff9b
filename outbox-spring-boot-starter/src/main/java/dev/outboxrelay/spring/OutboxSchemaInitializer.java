package dev.outboxrelay.spring;

import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.dedup.DedupStore;
import dev.outboxrelay.writer.OutboxSchema;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;

/**
 * {@code outbox.schema.create=true}: creates the outbox table, the polling relay's state tables and
 * the dedup tables when absent, while the context starts (before the relay starts). Safe to repeat
 * ({@code CREATE ... IF NOT EXISTS}); with several instances starting at once prefer Flyway or
 * Liquibase with the scripts the writer and consumer-dedup ship.
 */
public final class OutboxSchemaInitializer implements InitializingBean {
  private static final Logger log = LoggerFactory.getLogger(OutboxSchemaInitializer.class);
  private final DataSource dataSource;
  private final OutboxTable table;
  private final DedupStore dedupStore;

  OutboxSchemaInitializer(DataSource dataSource, OutboxTable table, DedupStore dedupStore) {
    this.dataSource = dataSource;
    this.table = table;
    this.dedupStore = dedupStore;
  }

  @Override
  public void afterPropertiesSet() {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(true);
      OutboxSchema.createIfMissing(c, table);
    } catch (SQLException e) {
      throw new OutboxDatabaseException("Could not create outbox table " + table, e);
    }
    dedupStore.createIfMissing();
    log.info("Outbox tables ready: {} and its dedup tables", table);
  }
}
