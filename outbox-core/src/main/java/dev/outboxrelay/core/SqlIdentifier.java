package dev.outboxrelay.core;

import java.util.regex.Pattern;

/**
 * Validates table and column names. Only {@code [A-Za-z_][A-Za-z0-9_]*} up to 63 characters (the
 * PostgreSQL limit) is accepted, so a name can never carry SQL; names are also quoted by the {@link
 * SqlDialect} wherever they are used.
 */
public final class SqlIdentifier {
  public static final int MAX_LENGTH = 63;
  private static final Pattern VALID = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0," + 62 + "}");

  private SqlIdentifier() {}

  /**
   * Returns the name when it is a valid identifier.
   *
   * @param setting the setting name used in the error message
   * @throws OutboxConfigException naming the setting and the bad value
   */
  public static String require(String setting, String name) {
    if (name == null || !VALID.matcher(name).matches()) {
      throw new OutboxConfigException(
          setting, name, "must be an identifier matching [A-Za-z_][A-Za-z0-9_]{0,62}");
    }
    return name;
  }
}
