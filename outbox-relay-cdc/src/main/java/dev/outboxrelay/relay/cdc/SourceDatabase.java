package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.SqlDialect;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Host, port and database of a JDBC URL, for the Debezium connector's settings. */
record SourceDatabase(SqlDialect dialect, String host, int port, String database) {
  private static final Pattern URL =
      Pattern.compile("jdbc:(postgresql|mariadb|mysql)://([^:/?]+)(?::(\\d+))?/([^?;]+).*");

  static SourceDatabase parse(String jdbcUrl) {
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
