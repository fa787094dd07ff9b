package dev.outboxrelay.relay.cdc.internal.debezium;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.SqlDialect;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Host, port and database of the relay's JDBC URL, and the dialect that picks the connector.
 *
 * <p>Invariant: the connector reads the database the relay's JDBC URL names; a URL that names no
 * host and database of PostgreSQL, MariaDB or MySQL is refused when the relay is built.
 *
 * <p>Debezium behaviour it answers: the connectors take no JDBC URL but {@code database.hostname},
 * {@code database.port} and the database ({@code database.dbname} on PostgreSQL, {@code
 * database.include.list} on MySQL/MariaDB).
 */
public record SourceDatabase(SqlDialect dialect, String host, int port, String database) {
  private static final Pattern URL =
      Pattern.compile("jdbc:(postgresql|mariadb|mysql)://([^:/?]+)(?::(\\d+))?/([^?;]+).*");

  /**
   * @throws OutboxConfigException naming {@code jdbcUrl} when it is not such a URL
   */
  public static SourceDatabase parse(String jdbcUrl) {
    Matcher m = jdbcUrl == null ? null : URL.matcher(jdbcUrl);
    if (m == null || !m.matches()) {
      throw new OutboxConfigException(
          "jdbcUrl",
          jdbcUrl,
          "must look like jdbc:<postgresql|mariadb|mysql>://host[:port]/database");
    }
    SqlDialect dialect =
        switch (m.group(1)) {
          case "postgresql" -> SqlDialect.POSTGRESQL;
          case "mariadb" -> SqlDialect.MARIADB;
          default -> SqlDialect.MYSQL;
        };
    int defaultPort = dialect == SqlDialect.POSTGRESQL ? 5432 : 3306;
    int port = m.group(3) == null ? defaultPort : Integer.parseInt(m.group(3));
    return new SourceDatabase(dialect, m.group(2), port, m.group(4));
  }
}
