package dev.outboxrelay.core;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * One setting, declared once (as Kafka's {@code ConfigDef} and Debezium's {@code Field} do): its
 * key, type, default, rule and one-line doc. The builders take their defaults and checks from it,
 * the daemon binds its YAML and {@code OUTBOX_*} variables through it and the Spring starter's
 * properties take their defaults from it; the module READMEs are checked against it by tests.
 *
 * <p>The key is kebab-case ({@code poll-interval}), as in the daemon's YAML and Spring's
 * properties; builders name it in camelCase ({@link #javaName()}, {@code pollInterval}) in their
 * messages. Immutable and thread-safe.
 *
 * @param <T> the value type
 */
public final class Setting<T> {
  private static final Pattern KEY = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");

  private final String key;
  private final Class<T> type;
  private final T defaultValue;
  private final String doc;
  private final Predicate<T> rule;
  private final String requirement;
  private final Function<String, T> parser;
  private final String textRequirement;
  private final boolean secret;

  Setting(
      String key,
      Class<T> type,
      T defaultValue,
      String doc,
      Predicate<T> rule,
      String requirement,
      Function<String, T> parser,
      String textRequirement,
      boolean secret) {
    if (!KEY.matcher(key).matches()) {
      throw new IllegalArgumentException("setting keys are kebab-case, but was " + key);
    }
    this.key = key;
    this.type = type;
    this.defaultValue = defaultValue;
    this.doc = Objects.requireNonNull(doc, "doc");
    this.rule = rule;
    this.requirement = requirement;
    this.parser = parser;
    this.textRequirement = textRequirement;
    this.secret = secret;
  }

  /** A whole number from {@code min} to {@code max}. */
  public static Setting<Integer> integer(String key, Integer dflt, int min, int max, String doc) {
    return new Setting<>(
        key,
        Integer.class,
        dflt,
        doc,
        v -> v >= min && v <= max,
        "must be between " + min + " and " + max,
        Setting::parseInt,
        "must be a whole number from " + min + " to " + max,
        false);
  }

  /** A duration of at least {@code min}; {@code dflt} null when it has none. */
  public static Setting<Duration> duration(String key, Duration dflt, Duration min, String doc) {
    return new Setting<>(
        key,
        Duration.class,
        dflt,
        doc,
        v -> v.compareTo(min) >= 0,
        "must be at least " + min,
        Setting::parsePositive,
        "must be a positive duration such as 200ms, 5s, 1m, 1h, 2d or PT5S",
        false);
  }

  /** On or off: {@code true}/{@code yes}/{@code on} or {@code false}/{@code no}/{@code off}. */
  public static Setting<Boolean> bool(String key, boolean dflt, String doc) {
    return new Setting<>(
        key,
        Boolean.class,
        dflt,
        doc,
        v -> true,
        "",
        Setting::parseBool,
        "must be true or false",
        false);
  }

  /** Text matching {@code rule}, described by {@code requirement} ("must be ..."). */
  public static Setting<String> text(
      String key, String dflt, Predicate<String> rule, String requirement, String doc) {
    return new Setting<>(
        key, String.class, dflt, doc, rule, requirement, s -> s, requirement, false);
  }

  /** The same setting whose values are never shown (messages print {@link Secrets#MASK}). */
  public Setting<T> secret() {
    return new Setting<>(
        key, type, defaultValue, doc, rule, requirement, parser, textRequirement, true);
  }

  /** The same setting with another default (a per-mode default, as the CDC poll interval). */
  public Setting<T> withDefault(T dflt) {
    return new Setting<>(key, type, dflt, doc, rule, requirement, parser, textRequirement, secret);
  }

  /** The value if it satisfies the rule, named by {@link #javaName()} in the exception. */
  public T check(T value) {
    return check(javaName(), value);
  }

  /**
   * The value if it satisfies the rule.
   *
   * @param as the name the caller knows the setting by ({@code relays[0].batch-size})
   * @throws OutboxConfigException naming {@code as}, the value (masked if secret) and the rule
   */
  public T check(String as, T value) {
    if (value == null || !rule.test(value)) {
      throw new OutboxConfigException(
          as, shown(value), value == null ? "is required" : requirement);
    }
    return value;
  }

  /**
   * The text read as this setting's type and checked; {@code 200ms}, {@code 5s} for durations.
   *
   * @throws OutboxConfigException naming {@code as} when the text is not of the type or breaks the
   *     rule (for whole numbers both say "must be a whole number from 1 to 10000")
   */
  public T parse(String as, String text) {
    T value = text == null ? null : parser.apply(text.trim());
    if (value == null || (type == Integer.class && !rule.test(value))) {
      throw new OutboxConfigException(as, shown(text), textRequirement);
    }
    return check(as, value);
  }

  /** The kebab-case key, e.g. {@code poll-interval}. */
  public String key() {
    return key;
  }

  /** The key in camelCase, as builders spell it: {@code pollInterval}. */
  public String javaName() {
    String[] parts = key.split("-");
    StringBuilder b = new StringBuilder(parts[0]);
    for (int i = 1; i < parts.length; i++) {
      b.append(Character.toUpperCase(parts[i].charAt(0))).append(parts[i].substring(1));
    }
    return b.toString();
  }

  /** The value type. */
  public Class<T> type() {
    return type;
  }

  /** The default, or null when the setting has none (required, or unset means something). */
  public T defaultValue() {
    return defaultValue;
  }

  /** The default as documented: {@code 250ms}, {@code 10s}, {@code 500}, {@code true}; or null. */
  public String defaultText() {
    if (defaultValue == null) {
      return null;
    }
    return defaultValue instanceof Duration d ? Durations.format(d) : defaultValue.toString();
  }

  /** The rule as a clause ("must be between 1 and 8"); empty when any value of the type goes. */
  public String requirement() {
    return requirement;
  }

  /** One line of documentation. */
  public String doc() {
    return doc;
  }

  /** Whether values are masked in messages. */
  public boolean isSecret() {
    return secret;
  }

  private Object shown(Object value) {
    return secret && value != null ? Secrets.MASK : value;
  }

  @Override
  public String toString() {
    return key + "=" + (secret ? Secrets.MASK : defaultText());
  }

  private static Integer parseInt(String s) {
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Duration parsePositive(String s) {
    Duration d = Durations.parse(s);
    return d == null || d.isZero() || d.isNegative() ? null : d;
  }

  private static Boolean parseBool(String s) {
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "true", "yes", "on" -> true;
      case "false", "no", "off" -> false;
      default -> null;
    };
  }
}
