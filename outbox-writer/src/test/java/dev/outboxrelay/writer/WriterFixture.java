package dev.outboxrelay.writer;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.rows.OutboxRows;
import dev.outboxrelay.servers.DatabaseServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;

/** A fresh database with the outbox table per test; subclasses pick the server. */
abstract class WriterFixture {
  final Outbox outbox = Outbox.builder().maxPayloadBytes(64 * 1024).build();
  String database;

  abstract DatabaseServer server();

  @BeforeEach
  void createSchema() throws SQLException {
    database = server().createDatabase();
    try (Connection c = connect()) {
      OutboxSchema.createIfMissing(c, OutboxTable.defaults());
    }
  }

  Connection connect() throws SQLException {
    return server().connect(database);
  }

  /** A connection with an open transaction, as the application would hold it. */
  Connection begin() throws SQLException {
    Connection c = connect();
    c.setAutoCommit(false);
    return c;
  }

  static OutboxMessage message(String aggregateId) {
    return OutboxMessage.builder()
        .aggregateType("order")
        .aggregateId(aggregateId)
        .type("OrderPlaced")
        .payload("{\"order\":\"" + aggregateId + "\"}")
        .build();
  }

  List<OutboxMessage> rows() throws SQLException {
    return rows(OutboxTable.defaults());
  }

  List<OutboxMessage> rows(OutboxTable table) throws SQLException {
    List<OutboxMessage> rows = new ArrayList<>();
    String sql =
        "SELECT "
            + OutboxRows.selectList(table, server().dialect())
            + " FROM "
            + table.qualifiedName(server().dialect())
            + " ORDER BY "
            + table.quoted(server().dialect(), dev.outboxrelay.core.OutboxColumn.SEQUENCE);
    try (Connection c = connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        rows.add(OutboxRows.read(rs));
      }
    }
    return rows;
  }

  List<UUID> ids() throws SQLException {
    return rows().stream().map(OutboxMessage::id).toList();
  }

  /** The business table the tests write beside the outbox. */
  void createOrders() throws SQLException {
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE orders (id VARCHAR(64) PRIMARY KEY, total INT NOT NULL)");
    }
  }

  static void insertOrder(Connection c, String id) throws SQLException {
    try (var ps = c.prepareStatement("INSERT INTO orders (id, total) VALUES (?, 10)")) {
      ps.setString(1, id);
      ps.executeUpdate();
    }
  }
}
