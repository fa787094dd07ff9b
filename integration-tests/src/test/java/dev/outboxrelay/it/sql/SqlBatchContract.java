package dev.outboxrelay.it.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.SqlBatch;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.servers.DatabaseServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SqlBatch}, point statements in one transaction (the polling relay's lease statements on
 * MySQL/MariaDB): keys in ascending order, all in one transaction, auto-commit on again afterwards.
 */
abstract class SqlBatchContract {
  /** The identity column numbers the rows in the order they were inserted. */
  private static final String INSERT = "INSERT INTO t (k, tag) VALUES (?, ?)";

  private Connection c;

  abstract DatabaseServer server();

  @BeforeEach
  void createTable() throws SQLException {
    c = server().connect(server().createDatabase());
    try (Statement st = c.createStatement()) {
      String pos =
          SqlDialect.of(c) == SqlDialect.POSTGRESQL
              ? "pos bigserial PRIMARY KEY"
              : "pos bigint AUTO_INCREMENT PRIMARY KEY";
      st.execute("CREATE TABLE t (" + pos + ", k varchar(36) NOT NULL UNIQUE, tag varchar(8))");
    }
  }

  @Test
  void keysRunInAscendingOrderWithTheTrailingParametersAndCommitTogether() throws SQLException {
    assertThat(SqlBatch.eachKeyInOrder(c, INSERT, List.of("c", "a", "b"), "x")).isEqualTo(3);
    assertThat(rows()).containsExactly("a 1 x", "b 2 x", "c 3 x");
    assertThat(c.getAutoCommit()).isTrue();
  }

  @Test
  void aFailingStatementRollsBackTheWholeBatch() throws SQLException {
    assertThatThrownBy(() -> SqlBatch.eachKeyInOrder(c, INSERT, List.of("b", "a", "a"), "x"))
        .isInstanceOf(SQLException.class);
    assertThat(rows()).isEmpty();
    assertThat(c.getAutoCommit()).isTrue();
  }

  @Test
  void noKeysRunNothing() throws SQLException {
    assertThat(SqlBatch.eachKeyInOrder(c, "not even SQL", List.<String>of())).isZero();
    assertThat(c.getAutoCommit()).isTrue();
  }

  private List<String> rows() throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT k, pos, tag FROM t ORDER BY k")) {
      while (rs.next()) {
        rows.add(rs.getString(1) + " " + rs.getInt(2) + " " + rs.getString(3));
      }
    }
    return rows;
  }

  @AfterEach
  void close() throws SQLException {
    c.close();
  }
}
