package dev.outboxrelay.demo;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.servers.MariaDbServer;
import dev.outboxrelay.servers.PostgresServer;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * {@code ./run-example}: starts a private database (outbox-servers), places orders with the outbox
 * event in the same transaction, rolls one back, and shows the table.
 */
public final class WriterExample {
  private WriterExample() {}

  public static void main(String[] args) throws SQLException {
    boolean maria = args.length > 0 && args[0].equalsIgnoreCase("mariadb");
    DatabaseServer server = maria ? MariaDbServer.shared() : PostgresServer.shared();
    run(server, System.out);
  }

  /** Returns the number of outbox rows left, which is the number of committed orders. */
  public static int run(DatabaseServer server, PrintStream out) throws SQLException {
    String database = server.createDatabase();
    out.printf(
        "Private %s on 127.0.0.1:%d, database %s%n", server.dialect(), server.port(), database);
    try (Connection c = server.connect(database)) {
      OutboxSchema.createIfMissing(c, OutboxTable.defaults());
      try (Statement st = c.createStatement()) {
        st.execute("CREATE TABLE orders (id VARCHAR(64) PRIMARY KEY, total INT NOT NULL)");
      }
      Outbox outbox = Outbox.builder().build();
      c.setAutoCommit(false);
      for (int i = 1; i <= 5; i++) {
        placeOrder(c, outbox, "order-" + i, i * 10);
        boolean fail = i == 3;
        if (fail) {
          c.rollback();
        } else {
          c.commit();
        }
        out.printf(
            "order-%d: %s%n", i, fail ? "rolled back (no event)" : "committed with its event");
      }
      return printOutbox(c, out);
    }
  }

  private static void placeOrder(Connection c, Outbox outbox, String id, int total)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("INSERT INTO orders (id, total) VALUES (?, ?)")) {
      ps.setString(1, id);
      ps.setInt(2, total);
      ps.executeUpdate();
    }
    outbox.save(
        c,
        OutboxMessage.builder()
            .aggregateType("order")
            .aggregateId(id)
            .type("OrderPlaced")
            .payload("{\"id\":\"" + id + "\",\"total\":" + total + "}")
            .header("source", "writer-example")
            .build());
  }

  private static int printOutbox(Connection c, PrintStream out) throws SQLException {
    int rows = 0;
    out.println("outbox table:  seq | bucket | aggregateid | type | payload");
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT seq, bucket, aggregateid, type, payload FROM outbox ORDER BY seq")) {
      while (rs.next()) {
        rows++;
        out.printf(
            "  %3d | %6d | %-11s | %s | %s%n",
            rs.getLong(1),
            rs.getInt(2),
            rs.getString(3),
            rs.getString(4),
            new String(rs.getBytes(5), java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    c.commit();
    out.printf("%d events committed with their orders, 1 rolled back with its order.%n", rows);
    return rows;
  }
}
