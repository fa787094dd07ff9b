package dev.outboxrelay.relay.polling;

import dev.outboxrelay.core.SqlDialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a LISTEN connection and wakes the worker when a writer's notification arrives (at its
 * commit). Polling stays the backstop: a lost connection only costs latency, and is reopened.
 */
final class PgNotifyListener implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(PgNotifyListener.class);

  private final DataSource dataSource;
  private final String channel;
  private final Waker waker;
  private final String name;
  private volatile boolean running = true;

  PgNotifyListener(DataSource dataSource, String channel, Waker waker, String name) {
    this.dataSource = dataSource;
    this.channel = channel;
    this.waker = waker;
    this.name = name;
  }

  @Override
  public void run() {
    while (running) {
      try (Connection c = dataSource.getConnection()) {
        c.setAutoCommit(true);
        try (Statement st = c.createStatement()) {
          // Quoted: the channel is the table's name, which may be a keyword (a table "order").
          st.execute("LISTEN " + SqlDialect.POSTGRESQL.quote(channel));
        }
        PGConnection pg = c.unwrap(PGConnection.class);
        waker.wake(); // rows may have arrived while we were not listening
        while (running) {
          PGNotification[] notes = pg.getNotifications(500);
          if (notes != null && notes.length > 0) {
            waker.announce();
          }
        }
      } catch (SQLException e) {
        if (running) {
          log.warn(
              "{} - LISTEN connection failed, falling back to polling: {}", name, e.getMessage());
          pause();
        }
      }
    }
  }

  void stop() {
    running = false;
  }

  private void pause() {
    try {
      Thread.sleep(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
    }
  }
}
