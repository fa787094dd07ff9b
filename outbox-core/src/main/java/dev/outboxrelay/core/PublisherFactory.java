package dev.outboxrelay.core;

import java.util.Map;

/**
 * Creates a {@link Publisher} by name from settings. Implementations are listed in {@code
 * META-INF/services/dev.outboxrelay.core.PublisherFactory} so the daemon finds a publisher jar
 * dropped on its classpath and named in its config.
 */
public interface PublisherFactory {

  /** The name used in configuration, e.g. {@code kafka}. */
  String name();

  /**
   * A new publisher.
   *
   * @param settings publisher settings; broker client settings are passed through unchanged
   * @throws OutboxConfigException naming an invalid setting
   */
  Publisher create(Map<String, String> settings);
}
