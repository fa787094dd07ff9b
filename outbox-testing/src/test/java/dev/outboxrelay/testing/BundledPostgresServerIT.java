package dev.outboxrelay.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.servers.PostgresServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL binaries bundled from Maven Central (used where no server is installed, e.g. by
 * {@code ./run-demo} on a machine with only a JDK and Maven) pass the same smoke tests as the
 * installed ones, logical WAL included.
 */
class BundledPostgresServerIT extends DatabaseServerSmokeIT {
  private static PostgresServer server;

  @BeforeAll
  static void startBundled() {
    String before = System.getProperty("outbox.postgres.bin");
    System.setProperty("outbox.postgres.bin", "bundled");
    try {
      server = PostgresServer.startNew();
    } finally {
      if (before == null) {
        System.clearProperty("outbox.postgres.bin");
      } else {
        System.setProperty("outbox.postgres.bin", before);
      }
    }
  }

  @AfterAll
  static void stopBundled() {
    if (server != null) {
      server.stop();
    }
  }

  @Override
  DatabaseServer server() {
    return server;
  }

  @Override
  String walSettingQuery() {
    return "SHOW wal_level";
  }

  @Override
  String expectedWalSetting() {
    return "logical";
  }

  @Test
  void runsTheBinariesFromMavenCentral() {
    assertThat(server.binaries().toString()).contains("outbox-relay-postgres-");
  }
}
