package dev.outboxrelay.core;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The duration spelling of config files: {@code 200ms}, {@code 5s}, {@code 1m}, {@code 2d}, as read
 * by {@link Setting} and the daemon's config loader. Stateless, thread-safe.
 */
public final class Durations {
  private static final Pattern SHORT = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");

  private Durations() {}

  /**
   * {@code 200ms}, {@code 5s}, {@code 1m}, {@code 1h}, {@code 2d} or ISO-8601 {@code PT5S}; null
   * when the text is neither.
   */
  public static Duration parse(String text) {
    String t = text.trim();
    Matcher m = SHORT.matcher(t);
    if (m.matches()) {
      try {
        long v = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
          case "ms" -> Duration.ofMillis(v);
          case "s" -> Duration.ofSeconds(v);
          case "m" -> Duration.ofMinutes(v);
          case "h" -> Duration.ofHours(v);
          default -> Duration.ofDays(v);
        };
      } catch (ArithmeticException | NumberFormatException e) {
        return null; // too large
      }
    }
    if (t.startsWith("P") || t.startsWith("p")) {
      try {
        return Duration.parse(t.toUpperCase(Locale.ROOT));
      } catch (DateTimeParseException e) {
        return null;
      }
    }
    return null;
  }

  /** The shortest spelling {@link #parse} reads back: {@code 250ms}, {@code 10s}, {@code 1m}. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms % 86_400_000 == 0) {
      return ms / 86_400_000 + "d";
    }
    if (ms % 3_600_000 == 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }
}
