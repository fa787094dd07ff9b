package dev.outboxrelay.writer;

import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;

class MariaDbKeyOrderIT extends KeyOrderContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.mariadb();

  @Override
  DatabaseServer server() {
    return DB.server();
  }

  @org.junit.jupiter.api.Test
  void everyLockSlotExistsBeforeTheFirstSave() throws Exception {
    try (java.sql.Connection c = connect();
        java.sql.Statement st = c.createStatement();
        java.sql.ResultSet rs =
            st.executeQuery("SELECT COUNT(*), MIN(slot), MAX(slot) FROM outbox_key_lock")) {
      rs.next();
      org.assertj.core.api.Assertions.assertThat(
              List.of(rs.getLong(1), rs.getLong(2), rs.getLong(3)))
          .containsExactly((long) KeyLocks.SLOTS, 0L, (long) KeyLocks.SLOTS - 1);
    }
    // createIfMissing again (and again) leaves the filled table as it is.
    try (java.sql.Connection c = connect()) {
      OutboxSchema.createIfMissing(c, dev.outboxrelay.core.OutboxTable.defaults());
    }
  }
}
