package dev.outboxrelay.testing;

import dev.outboxrelay.servers.DatabaseServer;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresServerIT extends DatabaseServerSmokeIT {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @Override
  DatabaseServer server() {
    return DB.server();
  }

  @Override
  String walSettingQuery() {
    return "SHOW wal_level";
  }

  @Override
  String expectedWalSetting() {
    return "logical";
  }
}
