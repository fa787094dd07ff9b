package dev.outboxrelay.relay.cdc.internal;

import dev.outboxrelay.core.Secrets;
import io.debezium.storage.jdbc.offset.JdbcOffsetBackingStore;
import org.apache.kafka.connect.runtime.WorkerConfig;

/**
 * Debezium's JDBC offset store, without secrets in its failures. When its configuration fails,
 * Debezium 3.5's store throws "Failed to connect JDBC offset backing store: " followed by every
 * setting of the engine, {@code database.password} included; when it cannot reach the database at
 * start, the JDBC URL as given. The engine logs either exception ("Engine has failed with") through
 * the application's logging, which this project does not configure when the relay runs embedded.
 * This store throws them with the cause alone, masked ({@link Secrets#maskText}). Remove when
 * Debezium stops printing its settings there.
 */
public final class MaskedJdbcOffsetBackingStore extends JdbcOffsetBackingStore {
  @Override
  public void configure(WorkerConfig config) {
    try {
      super.configure(config);
    } catch (RuntimeException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new IllegalStateException(
          "Failed to connect JDBC offset backing store: " + Secrets.maskText(cause.toString()),
          cause);
    }
  }

  @Override
  public synchronized void start() {
    try {
      super.start();
    } catch (RuntimeException e) {
      throw new IllegalStateException(Secrets.maskText(e.getMessage()), e.getCause());
    }
  }
}
