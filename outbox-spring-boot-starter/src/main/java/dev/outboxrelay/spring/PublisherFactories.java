package dev.outboxrelay.spring;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.PublisherFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.springframework.core.env.Environment;

/**
 * Finds the {@link PublisherFactory} named by {@code outbox.publisher.type} with {@link
 * ServiceLoader} and creates the publisher from {@code outbox.publisher.settings.*}.
 */
final class PublisherFactories {
  private PublisherFactories() {}

  static Publisher create(OutboxProperties.Publisher p, Environment env, ClassLoader loader) {
    String type = p.getType();
    if (type == null) {
      throw new OutboxConfigException(
          "outbox.publisher.type",
          null,
          "is required when outbox.relay.enabled=true (kafka, rocketmq), unless the application"
              + " defines a Publisher bean");
    }
    List<PublisherFactory> factories =
        ServiceLoader.load(PublisherFactory.class, loader).stream()
            .map(ServiceLoader.Provider::get)
            .toList();
    PublisherFactory factory =
        factories.stream()
            .filter(f -> f.name().equals(type))
            .findFirst()
            .orElseThrow(
                () ->
                    new OutboxConfigException(
                        "outbox.publisher.type",
                        type,
                        "must name a PublisherFactory on the classpath (found "
                            + factories.stream().map(PublisherFactory::name).toList()
                            + "; add e.g. outbox-publisher-kafka)"));
    return factory.create(settings(type, p.getSettings(), env));
  }

  /** For kafka, {@code bootstrap.servers} defaults to {@code spring.kafka.bootstrap-servers}. */
  static Map<String, String> settings(String type, Map<String, String> given, Environment env) {
    Map<String, String> settings = new LinkedHashMap<>(given);
    if ("kafka".equals(type) && !settings.containsKey("bootstrap.servers")) {
      String[] servers = env.getProperty("spring.kafka.bootstrap-servers", String[].class);
      if (servers != null && servers.length > 0) {
        settings.put("bootstrap.servers", String.join(",", servers));
      }
    }
    return settings;
  }
}
