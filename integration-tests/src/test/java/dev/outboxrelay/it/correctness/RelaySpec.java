package dev.outboxrelay.it.correctness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * One relay process's configuration, in the daemon's vocabulary (DAEMON-CONTRACT: relay.yaml).
 * Rendered as relay.yaml for the daemon jar, or as a properties file for {@link RelayMain}.
 */
final class RelaySpec {
  final Map<String, String> settings = new LinkedHashMap<>();
  final Map<String, String> publisher = new LinkedHashMap<>();
  final String publisherType;

  private RelaySpec(String name, String mode, String publisherType) {
    this.publisherType = publisherType;
    settings.put("name", name);
    settings.put("mode", mode);
    settings.put("batch-size", "200");
    settings.put("in-flight-batches", "2"); // polling only; with batch-size, the duplicates bound
    settings.put("poll-interval", "100ms");
    settings.put("lease-duration", "2s");
    settings.put("publish-timeout", "10s");
    settings.put("backoff-initial", "100ms");
    settings.put("backoff-max", "2s");
  }

  static RelaySpec polling(String name, String publisherType) {
    return new RelaySpec(name, "polling", publisherType);
  }

  static RelaySpec cdc(String name, String publisherType) {
    return new RelaySpec(name, "cdc", publisherType);
  }

  RelaySpec database(String url, String user, String password) {
    settings.put("database.url", url);
    settings.put("database.username", user);
    settings.put("database.password", password);
    return this;
  }

  RelaySpec set(String key, String value) {
    settings.put(key, value);
    return this;
  }

  RelaySpec lease(Duration lease) {
    return set("lease-duration", lease.toMillis() + "ms");
  }

  RelaySpec publisher(String key, String value) {
    publisher.put(key, value);
    return this;
  }

  String name() {
    return settings.get("name");
  }

  /**
   * Most messages one kill of this relay can publish again: what it may have sent but not marked.
   * Polling: a batch per lane in flight; CDC: two batches, the one in flight and the one whose
   * position write the kill interrupted (see the relays' READMEs).
   */
  int duplicatesPerKill() {
    int batch = Integer.parseInt(settings.get("batch-size"));
    return "cdc".equals(settings.get("mode"))
        ? 2 * batch
        : batch * Integer.parseInt(settings.get("in-flight-batches"));
  }

  /** The same relay with other settings, e.g. to restart it with a raised limit. */
  RelaySpec copy() {
    RelaySpec c = new RelaySpec(name(), settings.get("mode"), publisherType);
    c.settings.putAll(settings);
    c.publisher.putAll(publisher);
    return c;
  }

  void writeProperties(Path file) {
    Properties p = new Properties();
    settings.forEach(p::setProperty);
    p.setProperty("publisher.type", publisherType);
    publisher.forEach((k, v) -> p.setProperty("publisher.settings." + k, v));
    try (Writer w = Files.newBufferedWriter(file)) {
      p.store(w, "relay process " + name());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void writeYaml(Path file) {
    StringBuilder y = new StringBuilder("http:\n  host: 127.0.0.1\n  port: 0\nrelays:\n");
    y.append("  - name: ").append(name()).append('\n');
    settings.forEach(
        (k, v) -> {
          if (!k.startsWith("database.") && !k.equals("name")) {
            y.append("    ").append(k).append(": ").append(quote(v)).append('\n');
          }
        });
    y.append("    database:\n");
    settings.forEach(
        (k, v) -> {
          if (k.startsWith("database.")) {
            y.append("      ").append(k.substring(9)).append(": ").append(quote(v)).append('\n');
          }
        });
    y.append("    publisher:\n      type: ").append(publisherType).append("\n      settings:\n");
    publisher.forEach(
        (k, v) -> y.append("        ").append(k).append(": ").append(quote(v)).append('\n'));
    try {
      Files.writeString(file, y);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String quote(String v) {
    if (v.matches("[A-Za-z0-9_.\\-]+")) {
      return v;
    }
    return "'" + v.replace("'", "''") + "'";
  }
}
