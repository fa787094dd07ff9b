package dev.outboxrelay.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.servers.DatabaseServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** Connect, write, read back: each database launcher passes it. */
abstract class DatabaseServerSmokeIT {

  abstract DatabaseServer server();

  abstract String walSettingQuery();

  abstract String expectedWalSetting();

  @Test
  void writesAndReadsBack() throws SQLException {
    String db = server().createDatabase();
    try (Connection c = server().connect(db);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE smoke (id INT PRIMARY KEY, note VARCHAR(20))");
      st.execute("INSERT INTO smoke VALUES (1, 'hello')");
      try (ResultSet rs = st.executeQuery("SELECT note FROM smoke WHERE id = 1")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("hello");
      }
    }
  }

  @Test
  void changeCaptureIsEnabled() throws SQLException {
    try (Connection c = server().connect(server().adminDatabase());
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(walSettingQuery())) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(rs.getMetaData().getColumnCount()))
          .isEqualToIgnoringCase(expectedWalSetting());
    }
  }

  @Test
  void restartsOnTheSamePortWithItsData() throws SQLException {
    String db = server().createDatabase();
    try (Connection c = server().connect(db);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE kept (id INT PRIMARY KEY)");
      st.execute("INSERT INTO kept VALUES (7)");
    }
    server().stop();
    assertThat(server().isRunning()).isFalse();
    server().start();
    try (Connection c = server().connect(db);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT id FROM kept")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isEqualTo(7);
    }
  }
}
