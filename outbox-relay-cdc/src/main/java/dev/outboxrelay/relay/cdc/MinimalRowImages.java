package dev.outboxrelay.relay.cdc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MySQL/MariaDB: the retention's deletes write row images of the primary key alone to the binlog
 * (session {@code binlog_row_image=MINIMAL}) instead of whole rows with their payload: Debezium
 * reads every binlog event, deletes included, before it skips them, and the binlog is flushed at
 * each commit, a live writer's commits included. A replica applies such a delete by the key, as it
 * does the full image of a table with a primary key. Where the server refuses the setting (a
 * privilege), the deletes log full images; said once. A pooled connection is given back as it was.
 * Thread-safe.
 */
final class MinimalRowImages {
  private static final Logger log = LoggerFactory.getLogger(MinimalRowImages.class);

  private final boolean applies;
  private volatile boolean allowed = true; // until the server refuses it

  /** {@code applies}: the source writes a binlog (MySQL/MariaDB). */
  MinimalRowImages(boolean applies) {
    this.applies = applies;
  }

  /** Sets minimal row images for {@code c}'s session; false if it does not apply or was refused. */
  boolean set(Connection c) {
    if (!applies || !allowed) {
      return false;
    }
    try (Statement st = c.createStatement()) {
      st.execute("SET SESSION binlog_row_image = 'MINIMAL'");
      return true;
    } catch (SQLException e) {
      allowed = false;
      log.info(
          "Retention deletes log full row images: the server refused binlog_row_image=MINIMAL"
              + " for the session ({})",
          e.getMessage());
      return false;
    }
  }

  /** After {@link #set} returned true: the session's default again. */
  static void reset(Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute("SET SESSION binlog_row_image = DEFAULT");
    }
  }
}
