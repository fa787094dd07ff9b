package dev.outboxrelay.testing;

import dev.outboxrelay.servers.DatabaseServer;
import org.junit.jupiter.api.extension.RegisterExtension;

class MariaDbServerIT extends DatabaseServerSmokeIT {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.mariadb();

  @Override
  DatabaseServer server() {
    return DB.server();
  }

  @Override
  String walSettingQuery() {
    return "SHOW VARIABLES LIKE 'binlog_format'";
  }

  @Override
  String expectedWalSetting() {
    return "ROW";
  }
}
