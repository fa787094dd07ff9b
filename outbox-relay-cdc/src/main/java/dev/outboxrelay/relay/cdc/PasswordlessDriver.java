package dev.outboxrelay.relay.cdc;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * Lets Debezium's JDBC offset store and schema history log in without a password. Debezium 3.5
 * refuses an empty {@code jdbc.connection.password} ("A value is required", removed upstream by
 * debezium/dbz#1957), although the database may let the user in without one (PostgreSQL trust or
 * certificate authentication, a MySQL/MariaDB account without a password). The stores are given
 * {@link #wrap(String) a URL of this driver} and a {@link #PLACEHOLDER} password that satisfies the
 * check; this driver drops the password and connects through the real driver, so the database sees
 * exactly what a login without a password sends. Remove when Debezium accepts an empty password.
 */
final class PasswordlessDriver implements Driver {
  static final String PLACEHOLDER = "none";
  private static final String PREFIX = "jdbc:outbox-passwordless:";

  static {
    try {
      DriverManager.registerDriver(new PasswordlessDriver());
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The URL under which this driver connects to {@code jdbcUrl} without a password. */
  static String wrap(String jdbcUrl) {
    return PREFIX + jdbcUrl.substring("jdbc:".length());
  }

  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null; // the JDBC contract: not ours
    }
    Properties withoutPassword = new Properties();
    if (info != null) {
      withoutPassword.putAll(info);
    }
    withoutPassword.remove("password");
    return DriverManager.getConnection("jdbc:" + url.substring(PREFIX.length()), withoutPassword);
  }

  @Override
  public boolean acceptsURL(String url) {
    return url != null && url.startsWith(PREFIX);
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
    return new DriverPropertyInfo[0];
  }

  @Override
  public int getMajorVersion() {
    return 1;
  }

  @Override
  public int getMinorVersion() {
    return 0;
  }

  @Override
  public boolean jdbcCompliant() {
    return false;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }
}
