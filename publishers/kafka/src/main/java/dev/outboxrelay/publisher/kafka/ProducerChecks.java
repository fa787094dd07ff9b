package dev.outboxrelay.publisher.kafka;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.Secrets;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Utils;

/**
 * The producer's own checks of its settings, from Kafka's {@code ConfigDef}, without creating a
 * producer: no sender thread, no DNS lookup of {@code bootstrap.servers}, no connection. Each
 * setting alone first, so that the error names it; then {@link ProducerConfig} as a whole, for the
 * rules between settings.
 */
final class ProducerChecks {
  private ProducerChecks() {}

  static void check(Properties p) {
    Map<String, ConfigDef.ConfigKey> keys = ProducerConfig.configDef().configKeys();
    for (String name : p.stringPropertyNames()) {
      ConfigDef.ConfigKey key = keys.get(name);
      if (key != null) {
        one(name, p.getProperty(name), key);
      }
    }
    for (String url : p.getProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG).split(",")) {
      String u = url.trim();
      if (!u.isEmpty() && (Utils.getHost(u) == null || Utils.getPort(u) == null)) {
        throw new OutboxConfigException(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, u, "must list host:port entries");
      }
    }
    Properties whole = new Properties();
    whole.putAll(p);
    whole.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    whole.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    new ProducerConfig(whole); // throws ConfigException for a rule between settings
  }

  private static void one(String name, String value, ConfigDef.ConfigKey key) {
    try {
      Object parsed = ConfigDef.parseType(name, value, key.type);
      if (key.validator != null) {
        key.validator.ensureValid(name, parsed);
      }
    } catch (ConfigException e) {
      throw new OutboxConfigException(name, value, "is refused by the Kafka producer: " + why(e));
    }
  }

  /**
   * Kafka's reason without its "Invalid value X for configuration K: " prefix (X may be secret).
   */
  private static String why(ConfigException e) {
    String m = String.valueOf(e.getMessage());
    int at = m.indexOf(" for configuration ");
    int colon = at < 0 ? -1 : m.indexOf(": ", at);
    return colon < 0 ? Secrets.maskText(m) : m.substring(colon + 2);
  }
}
