package dev.outboxrelay.testing;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.Setting;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A README's settings table checked against the {@link Setting} declarations, so docs and code
 * cannot drift: every declared setting has a row, and the row's default is the declared one.
 */
public final class SettingsTable {
  private static final Pattern KEY = Pattern.compile("`([^`]+)`");

  /** A row: its setting names ({@code `a` / `b`} gives two) and the default given for each. */
  public record Row(List<String> names, List<String> defaults) {}

  private SettingsTable() {}

  /** The rows of the first table after the heading line starting with {@code heading}. */
  public static List<Row> read(Path readme, String heading) {
    List<Row> rows = new ArrayList<>();
    boolean inTable = false;
    for (String line : Readme.from(readme, heading).split("\n")) {
      if (!line.startsWith("|")) {
        if (inTable) {
          break;
        }
        continue;
      }
      inTable = true;
      String[] cells = line.split("(?<!\\\\)\\|");
      if (cells.length < 3 || cells[1].contains("---") || !cells[1].contains("`")) {
        continue;
      }
      List<String> names = names(cells[1]);
      String dflt = cells[2].trim();
      List<String> defaults = names.size() > 1 ? List.of(dflt.split(" / |, ")) : List.of(dflt);
      rows.add(new Row(names, defaults));
    }
    return rows;
  }

  /** {@code `a.b-c` / `-d` / `.e` / `f`} → {@code a.b-c, a.b-d, a.e, a.f}. */
  private static List<String> names(String cell) {
    List<String> names = new ArrayList<>();
    Matcher m = KEY.matcher(cell);
    while (m.find()) {
      String n = m.group(1);
      String first = names.isEmpty() ? null : names.get(0);
      if (first == null || (n.contains(".") && !n.startsWith("."))) {
        names.add(n);
      } else if (n.startsWith("-")) {
        names.add(first.substring(0, first.lastIndexOf('-')) + n);
      } else if (n.startsWith(".")) {
        names.add(first.substring(0, first.lastIndexOf('.')) + n);
      } else {
        names.add(first.substring(0, first.lastIndexOf('.') + 1) + n);
      }
    }
    return names;
  }

  /** The default documented for {@code name}, or null when no row names it. */
  public static String defaultOf(List<Row> rows, String name) {
    for (Row r : rows) {
      int i = r.names().indexOf(name);
      if (i >= 0) {
        return r.defaults().get(Math.min(i, r.defaults().size() - 1));
      }
    }
    return null;
  }

  /**
   * Every setting is documented under {@code nameOf(setting)}, with its declared default (compared
   * as values: {@code 60 s}, {@code 60s} and {@code 1m} agree; {@code on} is {@code true}); a
   * setting without a default only needs its row.
   *
   * @throws AssertionError listing every setting missing or documented with another default
   */
  public static void check(
      List<Row> rows, List<Setting<?>> settings, Function<Setting<?>, String> nameOf) {
    List<String> problems = new ArrayList<>();
    for (Setting<?> s : settings) {
      String name = nameOf.apply(s);
      String documented = defaultOf(rows, name);
      if (documented == null) {
        problems.add(name + " is declared but not in the table");
      } else if (s.defaultValue() != null
          && !Objects.equals(value(s, documented), s.defaultValue())) {
        problems.add(name + " is documented with default '" + documented + "', declared " + s);
      }
    }
    if (!problems.isEmpty()) {
      throw new AssertionError(String.join("\n", problems));
    }
  }

  /** The documented default read as the setting's type; null when it is not one (none, ...). */
  public static Object value(Setting<?> s, String documented) {
    String t = documented.replace("`", "").trim();
    t = t.replaceAll("(\\d+)\\s+(ms|s|m|h|d)\\b", "$1$2").split("[\\s(]", 2)[0];
    t = Map.of("on", "true", "off", "false").getOrDefault(t, t);
    if (s.type() == Duration.class) {
      try {
        return s.parse(s.key(), t); // core's duration syntax, through the public Setting API
      } catch (OutboxConfigException e) {
        return null;
      }
    }
    try {
      return s.type() == Integer.class
          ? Integer.valueOf(t)
          : s.type() == Boolean.class ? parseBool(t) : t;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Boolean parseBool(String t) {
    return t.equals("true") ? Boolean.TRUE : t.equals("false") ? Boolean.FALSE : null;
  }
}
