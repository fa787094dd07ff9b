package dev.outboxrelay.servers;

import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.servers.internal.BinaryLocator;
import dev.outboxrelay.servers.internal.PortConflicts;
import dev.outboxrelay.servers.internal.Ports;
import dev.outboxrelay.servers.internal.Processes;
import dev.outboxrelay.servers.internal.ServerDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A private MariaDB with a ROW binlog (full row image), on a free port, user {@code outbox} with
 * password {@code outbox} (all privileges). Uses the installed {@code mariadbd} (Debian's {@code
 * mariadb-server} package; {@code -Doutbox.mariadb.bin=DIR} overrides). For speed InnoDB flushes
 * its log once a second ({@code innodb_flush_log_at_trx_commit=2}); {@value #OPTIONS_PROPERTY}
 * appends options that override the defaults.
 */
public final class MariaDbServer implements DatabaseServer {
  private static final Logger log = LoggerFactory.getLogger(MariaDbServer.class);
  private static volatile MariaDbServer shared;

  /**
   * System property with extra server options (separated by spaces) appended to the defaults, which
   * they override, e.g. {@code --innodb-flush-log-at-trx-commit=1 --sync-binlog=1}; read at each
   * start.
   */
  public static final String OPTIONS_PROPERTY = "outbox.mariadb.options";

  private final Path dir;
  private final int port;
  private final boolean asRoot = ServerDirs.runningAsRoot();
  private Process process;

  private MariaDbServer() {
    this.dir = ServerDirs.create("mariadb");
    this.port = Ports.free();
    List<String> cmd =
        new ArrayList<>(
            List.of(
                BinaryLocator.mariadbInstallDb().toString(),
                "--no-defaults",
                "--datadir=" + dir.resolve("data"),
                "--skip-test-db",
                "--auth-root-authentication-method=normal"));
    if (asRoot) {
      cmd.add("--user=root");
    }
    Processes.run(cmd, dir.resolve("install-db.log"), Duration.ofMinutes(2));
  }

  /** One server per JVM, started on first use and stopped when the JVM exits. */
  public static synchronized MariaDbServer shared() {
    if (shared == null) {
      MariaDbServer s =
          PortConflicts.retry(
              "MariaDB",
              () -> {
                MariaDbServer started = new MariaDbServer();
                started.start();
                return started;
              });
      Runtime.getRuntime().addShutdownHook(new Thread(s::stop, "mariadb-stop"));
      shared = s;
    }
    return shared;
  }

  @Override
  public synchronized void start() {
    long t0 = System.nanoTime();
    List<String> cmd =
        new ArrayList<>(
            List.of(
                BinaryLocator.mariadbd().toString(),
                "--no-defaults",
                "--datadir=" + dir.resolve("data"),
                "--socket=/tmp/outbox-mariadb-" + port + ".sock",
                "--port=" + port,
                "--bind-address=127.0.0.1",
                "--skip-name-resolve",
                "--log-bin=" + dir.resolve("data/mysql-bin"),
                "--binlog-format=ROW",
                "--binlog-row-image=FULL",
                "--server-id=1",
                "--innodb-flush-log-at-trx-commit=2",
                "--innodb-buffer-pool-size=128M",
                "--max-connections=300",
                "--innodb-print-all-deadlocks=ON",
                "--pid-file=" + dir.resolve("mariadb.pid")));
    for (String option : System.getProperty(OPTIONS_PROPERTY, "").trim().split("\\s+")) {
      if (!option.isEmpty()) {
        cmd.add(option);
      }
    }
    if (asRoot) {
      cmd.add("--user=root");
    }
    process = Processes.start(cmd, dir.resolve("mariadb.log"));
    Processes.awaitReady(
        "MariaDB",
        process,
        dir.resolve("mariadb.log"),
        Duration.ofSeconds(60),
        this::acceptsQueries);
    createUser();
    log.info(
        "MariaDB started on 127.0.0.1:{} in {} ms ({})",
        port,
        (System.nanoTime() - t0) / 1_000_000,
        dir);
  }

  private boolean acceptsQueries() {
    try (var c = asRoot()) {
      return c.isValid(2);
    } catch (java.sql.SQLException e) {
      return false;
    }
  }

  /** Tests use a user with a password: some clients (Debezium's JDBC stores) require one. */
  private void createUser() {
    try (var c = asRoot();
        var st = c.createStatement()) {
      st.execute("CREATE USER IF NOT EXISTS 'outbox'@'%' IDENTIFIED BY 'outbox'");
      st.execute("GRANT ALL PRIVILEGES ON *.* TO 'outbox'@'%' WITH GRANT OPTION");
    } catch (java.sql.SQLException e) {
      throw new ServerStartException("Could not create the test user on MariaDB: " + e, e);
    }
  }

  private java.sql.Connection asRoot() throws java.sql.SQLException {
    return java.sql.DriverManager.getConnection(jdbcUrl(adminDatabase()), "root", "");
  }

  @Override
  public synchronized void stop() {
    Processes.stop(process, Duration.ofSeconds(30));
  }

  @Override
  public boolean isRunning() {
    return process != null && process.isAlive();
  }

  @Override
  public SqlDialect dialect() {
    return SqlDialect.MARIADB;
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public String user() {
    return "outbox";
  }

  @Override
  public String password() {
    return "outbox";
  }

  @Override
  public String adminDatabase() {
    return "mysql";
  }

  @Override
  public String jdbcUrl(String database) {
    return "jdbc:mariadb://127.0.0.1:" + port + "/" + database;
  }
}
