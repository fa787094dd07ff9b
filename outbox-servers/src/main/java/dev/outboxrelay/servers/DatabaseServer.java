package dev.outboxrelay.servers;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.SqlDialect;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/** A private database server on 127.0.0.1 started for tests. Thread-safe. */
public interface DatabaseServer {

  /** Database names handed out by {@link #createDatabase()} are unique per JVM. */
  AtomicInteger DATABASES = new AtomicInteger();

  SqlDialect dialect();

  int port();

  String user();

  String password();

  /** The JDBC URL of a database on this server. */
  String jdbcUrl(String database);

  /**
   * Stops the server (fast shutdown); {@link #start()} brings it back on the same port and data.
   */
  void stop();

  /** Starts a stopped server again. */
  void start();

  boolean isRunning();

  /** Creates an empty database and returns its name. */
  default String createDatabase() {
    String name = "test_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
    try (Connection c = connect(adminDatabase());
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("Could not create database " + name + ": " + e, e);
    }
    return name;
  }

  /** A new connection to a database; the caller closes it. */
  default Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(jdbcUrl(database), user(), password());
  }

  /** A connection pool on a database; the caller closes it. */
  default HikariDataSource dataSource(String database, int maxConnections) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl(database));
    config.setUsername(user());
    config.setPassword(password());
    config.setMaximumPoolSize(maxConnections);
    config.setConnectionTimeout(10_000);
    config.setPoolName(database);
    return new HikariDataSource(config);
  }

  /** The database that always exists. */
  String adminDatabase();
}
