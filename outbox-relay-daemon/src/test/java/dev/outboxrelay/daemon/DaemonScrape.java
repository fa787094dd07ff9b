package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.servers.DaemonProcess;
import dev.outboxrelay.writer.Outbox;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/** What the daemon-as-a-process tests read from a running daemon, and the order they save. */
final class DaemonScrape {
  private DaemonScrape() {}

  /** The Prometheus text of {@code /metrics}; fails unless it answered 200. */
  static String metrics(DaemonProcess d) throws Exception {
    String r = d.get("/metrics");
    assertThat(r).startsWith("200 ");
    return r.substring(4);
  }

  /** The value of one series in a Prometheus text; fails if it is absent. */
  static double value(String metrics, String series) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(metrics);
    assertThat(m.find()).as(series).isTrue();
    return Double.parseDouble(m.group(1));
  }

  /** An {@code OrderPlaced} message of aggregate {@code order}. */
  static OutboxMessage order(String aggregateId, String payload) {
    return OutboxMessage.builder()
        .aggregateType("order")
        .aggregateId(aggregateId)
        .type("OrderPlaced")
        .payload(payload)
        .build();
  }

  /** Saves {@code m} through the writer in a transaction of its own, committed. */
  static void save(DataSource app, OutboxMessage m) throws SQLException {
    try (Connection c = app.getConnection()) {
      c.setAutoCommit(false);
      Outbox.builder().build().save(c, m);
      c.commit();
    }
  }
}
