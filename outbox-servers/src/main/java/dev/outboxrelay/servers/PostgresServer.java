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
 * A private PostgreSQL with {@code wal_level=logical}, on a free port, trust authentication, user
 * {@code postgres}. Uses the installed server binaries (Debian's {@code postgresql} package; {@code
 * -Doutbox.postgres.bin=DIR} overrides), or else PostgreSQL 17 binaries from Maven Central ({@code
 * -Doutbox.postgres.bin=bundled} forces them). As root, the server runs as the {@code postgres}
 * user, or {@code nobody} where there is none. For speed it runs with {@code fsync=off} and {@code
 * full_page_writes=off}; {@value #OPTIONS_PROPERTY} appends options that override them.
 */
public final class PostgresServer implements DatabaseServer {
  private static final Logger log = LoggerFactory.getLogger(PostgresServer.class);
  private static volatile PostgresServer shared;

  /**
   * System property with extra server options appended to the defaults (which they override), e.g.
   * {@code -c fsync=on -c full_page_writes=on}; read at each start.
   */
  public static final String OPTIONS_PROPERTY = "outbox.postgres.options";

  private Path dir;
  private final Path bin;
  private final int port;
  private final boolean asRoot = ServerDirs.runningAsRoot();
  private final String runAs = asRoot ? BinaryLocator.serviceUser("postgres") : null;

  private PostgresServer() {
    this.bin = BinaryLocator.postgresBin();
    this.dir = ServerDirs.create("postgres");
    this.port = Ports.free();
    if (asRoot && !BinaryLocator.handTo(runAs, dir)) {
      // The postgres user cannot reach the build directory: keep the data in /tmp instead.
      dir =
          ServerDirs.createUnder(Path.of(System.getProperty("java.io.tmpdir")), "outbox-postgres");
      if (!BinaryLocator.handTo(runAs, dir)) {
        throw new ServerStartException("The " + runAs + " user cannot write " + dir);
      }
    }
    Processes.run(
        pgCommand(
            "initdb",
            "-D",
            dir.resolve("data").toString(),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync"),
        dir.resolve("initdb.log"),
        Duration.ofMinutes(2));
  }

  /** One server per JVM, started on first use and stopped when the JVM exits. */
  public static synchronized PostgresServer shared() {
    if (shared == null) {
      PostgresServer s = startNew();
      Runtime.getRuntime().addShutdownHook(new Thread(s::stop, "postgres-stop"));
      shared = s;
    }
    return shared;
  }

  /** A new private server, started; the caller stops it. */
  public static PostgresServer startNew() {
    return PortConflicts.retry(
        "PostgreSQL",
        () -> {
          PostgresServer s = new PostgresServer();
          s.start();
          return s;
        });
  }

  /** The directory of the server binaries in use. */
  public Path binaries() {
    return bin;
  }

  @Override
  public synchronized void start() {
    long t0 = System.nanoTime();
    String options =
        String.join(
            " ",
            "-p",
            String.valueOf(port),
            "-c listen_addresses=127.0.0.1",
            "-c unix_socket_directories=''",
            "-c wal_level=logical",
            "-c max_wal_senders=40",
            "-c max_replication_slots=40",
            "-c max_connections=200",
            "-c fsync=off",
            "-c full_page_writes=off",
            "-c shared_buffers=64MB",
            // Later -c options win: e.g. a benchmark's durable settings.
            System.getProperty(OPTIONS_PROPERTY, ""));
    try {
      Processes.run(
          pgCommand(
              "pg_ctl",
              "-D",
              dir.resolve("data").toString(),
              "-l",
              dir.resolve("postgres.log").toString(),
              "-w",
              "-t",
              "60",
              "-o",
              options,
              "start"),
          dir.resolve("pg_ctl.log"),
          Duration.ofSeconds(90));
    } catch (ServerStartException e) {
      // pg_ctl only says to look at the server's log; the reason (e.g. a port in use) is there.
      throw new ServerStartException(
          e.getMessage() + "\nserver log: " + Processes.tail(dir.resolve("postgres.log")), e);
    }
    log.info(
        "PostgreSQL started on 127.0.0.1:{} in {} ms ({})",
        port,
        (System.nanoTime() - t0) / 1_000_000,
        dir);
  }

  @Override
  public synchronized void stop() {
    if (isRunning()) {
      Processes.run(
          pgCommand("pg_ctl", "-D", dir.resolve("data").toString(), "-m", "fast", "-w", "stop"),
          dir.resolve("pg_ctl.log"),
          Duration.ofSeconds(60));
    }
  }

  @Override
  public boolean isRunning() {
    return Ports.isListening(port);
  }

  private List<String> pgCommand(String program, String... args) {
    List<String> cmd = new ArrayList<>();
    if (asRoot) {
      cmd.addAll(List.of("runuser", "-u", runAs, "--"));
    }
    cmd.add(bin.resolve(program).toString());
    cmd.addAll(List.of(args));
    return cmd;
  }

  @Override
  public SqlDialect dialect() {
    return SqlDialect.POSTGRESQL;
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public String user() {
    return "postgres";
  }

  @Override
  public String password() {
    return "outbox"; // ignored: trust authentication; some clients insist on a password
  }

  @Override
  public String adminDatabase() {
    return "postgres";
  }

  @Override
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }
}
