package dev.outboxrelay.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.writer.OutboxSchema;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** A fresh database with the outbox table on one of the private servers. Close after use. */
final class Db implements AutoCloseable {
  final DatabaseServer server;
  final String name;
  final String kind;
  final HikariDataSource ds;

  Db(DatabaseServer server, String kind) {
    this.server = server;
    this.kind = kind;
    this.name = server.createDatabase();
    this.ds = pool(server, name);
    String slowMs = System.getProperty("outbox.bench.pgSlowMillis");
    if (slowMs != null && server.dialect() == dev.outboxrelay.core.SqlDialect.POSTGRESQL) {
      // Diagnostics for profiling: PostgreSQL logs statements slower than this.
      execute(
          "ALTER DATABASE "
              + name
              + " SET log_min_duration_statement = "
              + Integer.parseInt(slowMs));
      execute("ALTER DATABASE " + name + " SET session_preload_libraries = 'auto_explain'");
      execute(
          "ALTER DATABASE "
              + name
              + " SET auto_explain.log_min_duration = "
              + Integer.parseInt(slowMs));
      ds.getHikariPoolMXBean().softEvictConnections();
    }
    try (Connection c = ds.getConnection()) {
      OutboxSchema.createIfMissing(c, OutboxTable.defaults());
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The pool of this database (writers and relays). {@code -Doutbox.bench.mariadbJdbcOptions=...}
   * (e.g. {@code useBulkStmts=true}) appends driver options to MariaDB's URL, for tuning runs.
   */
  private static HikariDataSource pool(DatabaseServer server, String name) {
    String options = System.getProperty("outbox.bench.mariadbJdbcOptions", "");
    if (options.isEmpty() || server.dialect() != dev.outboxrelay.core.SqlDialect.MARIADB) {
      return server.dataSource(name, 16);
    }
    com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
    config.setJdbcUrl(server.jdbcUrl(name) + "?" + options);
    config.setUsername(server.user());
    config.setPassword(server.password());
    config.setMaximumPoolSize(16);
    config.setConnectionTimeout(10_000);
    config.setPoolName(name);
    return new HikariDataSource(config);
  }

  String url() {
    return server.jdbcUrl(name);
  }

  long count(String sql) {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  void execute(String sql) {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e.getMessage(), e);
    }
  }

  long pending() {
    return count("SELECT COUNT(*) FROM outbox");
  }

  @Override
  public void close() {
    ds.close();
    try (Connection c = server.connect(server.adminDatabase());
        Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + name);
    } catch (SQLException e) {
      // Best effort: a replication slot may still hold it; the server is private and temporary.
    }
  }
}
