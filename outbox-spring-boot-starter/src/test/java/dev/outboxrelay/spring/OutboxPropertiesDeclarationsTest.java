package dev.outboxrelay.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.Setting;
import dev.outboxrelay.relay.cdc.CdcSettings;
import dev.outboxrelay.relay.polling.PollingSettings;
import dev.outboxrelay.testing.SettingsTable;
import dev.outboxrelay.testing.SettingsTable.Row;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code outbox.relay.*} and the relays' declarations ({@link PollingSettings}, {@link
 * CdcSettings}) agree: every declared setting is a property with the declared default, in the bound
 * bean, in the IDE metadata and in the README's table (both defaults where the two relays differ,
 * and the property then has none of its own); every relay property is declared.
 */
class OutboxPropertiesDeclarationsTest {
  /** Spring's name where it differs from the declaration's key. */
  private static final Map<String, String> SPRING_KEY = Map.of("keep-published-for", "keep-for");

  /**
   * Properties of the starter only: they choose and start the relay, and the {@code cdc} group
   * holds the CDC source (defaulting to spring.datasource.*) and Debezium's pass-through.
   */
  private static final Set<String> SPRING_ONLY = Set.of("enabled", "auto-startup", "mode", "cdc");

  private static final Map<String, Setting<?>> DECLARED = new LinkedHashMap<>();

  static {
    PollingSettings.ALL.forEach(s -> DECLARED.put(s.key(), s));
    CdcSettings.ALL.forEach(s -> DECLARED.putIfAbsent(s.key(), s));
  }

  @Test
  void everyDeclaredSettingIsAPropertyWithTheDeclaredDefault() throws Exception {
    String metadata = metadata();
    OutboxProperties.Relay bean = new OutboxProperties().getRelay();
    for (Setting<?> s : DECLARED.values()) {
      String name = "outbox.relay." + springKey(s);
      Matcher entry = entry(metadata, name);
      assertThat(entry.find()).as("%s in the Spring metadata", name).isTrue();
      Object expected = perMode(s) ? null : s.defaultValue();
      assertThat(getter(bean, springKey(s))).as("%s bound default", name).isEqualTo(expected);
      Matcher dflt =
          Pattern.compile("\"defaultValue\"\\s*:\\s*\"?([^\",}\\n]+)").matcher(entry.group());
      Object inMetadata = dflt.find() ? SettingsTable.value(s, dflt.group(1)) : null;
      assertThat(inMetadata).as("%s default in the IDE metadata", name).isEqualTo(expected);
    }
  }

  @Test
  void everyRelayPropertyIsDeclared() throws Exception {
    Matcher names =
        Pattern.compile("\"name\"\\s*:\\s*\"outbox\\.relay\\.([a-z-]+)\"").matcher(metadata());
    Set<String> properties = new TreeSet<>();
    while (names.find()) {
      properties.add(names.group(1));
    }
    Set<String> declared = new TreeSet<>(SPRING_ONLY);
    DECLARED.values().forEach(s -> declared.add(springKey(s)));
    assertThat(properties).isEqualTo(declared);
  }

  @Test
  void theReadmeTableMatchesTheDeclarations() {
    List<Row> rows = SettingsTable.read(Path.of("README.md"), "## Properties");
    List<Setting<?>> single = DECLARED.values().stream().filter(s -> !perMode(s)).toList();
    SettingsTable.check(rows, single, s -> "outbox.relay." + springKey(s));
    for (Setting<?> s : DECLARED.values().stream().filter(s -> perMode(s)).toList()) {
      String cell = SettingsTable.defaultOf(rows, "outbox.relay." + springKey(s));
      assertThat(cell).as("outbox.relay.%s documented", springKey(s)).isNotNull();
      Matcher values = Pattern.compile("`([^`]+)`").matcher(cell);
      Set<Object> documented = new java.util.HashSet<>();
      while (values.find()) {
        documented.add(SettingsTable.value(s, values.group(1)));
      }
      assertThat(documented)
          .as("%s: both relays' defaults in '%s'", s.key(), cell)
          .contains(polling(s).defaultValue(), cdc(s).defaultValue());
    }
  }

  /** Declared by both relays with different defaults: the property has none of its own. */
  private static boolean perMode(Setting<?> s) {
    return polling(s) != null
        && cdc(s) != null
        && !Objects.equals(polling(s).defaultValue(), cdc(s).defaultValue());
  }

  private static Setting<?> polling(Setting<?> s) {
    return PollingSettings.ALL.stream()
        .filter(p -> p.key().equals(s.key()))
        .findFirst()
        .orElse(null);
  }

  private static Setting<?> cdc(Setting<?> s) {
    return CdcSettings.ALL.stream().filter(p -> p.key().equals(s.key())).findFirst().orElse(null);
  }

  private static String springKey(Setting<?> s) {
    return SPRING_KEY.getOrDefault(s.key(), s.key());
  }

  private static Object getter(Object bean, String key) throws Exception {
    StringBuilder camel = new StringBuilder();
    for (String part : key.split("-")) {
      camel.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
    }
    for (String prefix : List.of("get", "is")) {
      try {
        Method m = bean.getClass().getMethod(prefix + camel);
        return m.invoke(bean);
      } catch (NoSuchMethodException e) {
        // try the next prefix
      }
    }
    throw new AssertionError("no getter for " + key);
  }

  private static Matcher entry(String metadata, String name) {
    return Pattern.compile("\\{[^{}]*\"name\"\\s*:\\s*\"" + Pattern.quote(name) + "\"[^{}]*}")
        .matcher(metadata);
  }

  private static String metadata() throws Exception {
    try (var in =
        OutboxProperties.class
            .getClassLoader()
            .getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("generated Spring metadata").isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
