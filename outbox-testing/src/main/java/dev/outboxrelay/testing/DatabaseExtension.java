package dev.outboxrelay.testing;

import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.servers.MariaDbServer;
import dev.outboxrelay.servers.PostgresServer;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts the JVM's shared database server before a test class:
 *
 * <pre>{@code @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();}
 * </pre>
 *
 * If the server cannot start, the test class fails with the reason; it is never skipped.
 */
public final class DatabaseExtension implements BeforeAllCallback {
  private final Supplier<DatabaseServer> starter;
  private volatile DatabaseServer server;

  private DatabaseExtension(Supplier<DatabaseServer> starter) {
    this.starter = starter;
  }

  /** PostgreSQL with logical WAL. */
  public static DatabaseExtension postgres() {
    return new DatabaseExtension(PostgresServer::shared);
  }

  /** MariaDB with a ROW binlog. */
  public static DatabaseExtension mariadb() {
    return new DatabaseExtension(MariaDbServer::shared);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    server();
  }

  /** The running server, started if needed. */
  public DatabaseServer server() {
    if (server == null) {
      server = starter.get();
      if (!server.isRunning()) {
        server.start();
      }
    }
    return server;
  }
}
