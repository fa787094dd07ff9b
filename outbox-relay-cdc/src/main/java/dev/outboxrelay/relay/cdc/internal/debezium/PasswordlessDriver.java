package dev.outboxrelay.relay.cdc.internal.debezium;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * Invariant: Debezium's JDBC stores log in exactly as the relay's source user does; a user without
 * a password reaches the database with no password sent, as a login without one sends.
 *
 * <p>Debezium behaviour it answers: {@code JdbcCommonConfig.PROP_PASSWORD} ({@code
 * jdbc.connection.password} of {@code JdbcOffsetBackingStore} and {@code JdbcSchemaHistory}) is
 * validated with {@code Field::isRequired} in Debezium 3.5, so an empty password fails the engine
 * with "A value is required" (debezium/dbz#1957), although the database may let the user in without
 * one (PostgreSQL trust or certificate authentication, a MySQL/MariaDB account without a password).
 * For such a user {@link #storeLogin} gives the stores a URL of this driver and a placeholder
 * password that passes the check; this driver drops the password and connects through the real
 * driver.
 */
final class PasswordlessDriver implements Driver {
  private static final String PLACEHOLDER = "none";
  private static final String PREFIX = "jdbc:outbox-passwordless:";

  static {
    try {
      DriverManager.registerDriver(new PasswordlessDriver());
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * Sets a JDBC store's login ({@code <prefix>jdbc.connection.url}, {@code .user}, {@code
   * .password}); through this driver when {@code password} is empty.
   */
  static void storeLogin(
      Properties p, String prefix, String jdbcUrl, String user, String password) {
    boolean none = password.isEmpty();
    p.setProperty(prefix + "jdbc.connection.url", none ? wrap(jdbcUrl) : jdbcUrl);
    p.setProperty(prefix + "jdbc.connection.user", user);
    p.setProperty(prefix + "jdbc.connection.password", none ? PLACEHOLDER : password);
  }

  /** The URL under which this driver connects to {@code jdbcUrl} without a password. */
  private static String wrap(String jdbcUrl) {
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
