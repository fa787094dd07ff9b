package dev.outboxrelay.core;

import java.util.Map;
import java.util.Optional;

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

  /**
   * Checks the settings as {@link #create} would, without creating a client: no thread, no name
   * lookup, no connection. The daemon calls it at start-up before it waits for any server, so a bad
   * setting is reported at once rather than after a database wait. Default: no check ({@link
   * #create} is then the first to refuse a setting).
   *
   * @param settings publisher settings, as for {@link #create}
   * @throws OutboxConfigException naming an invalid setting
   */
  default void validate(Map<String, String> settings) {}

  /**
   * What the broker would refuse in {@code topic} as a topic name, checked without a client, as
   * {@link Publisher#topicProblem} does; empty when it is acceptable. Default: empty (the relay
   * builders still ask the publisher).
   */
  default Optional<String> topicProblem(String topic) {
    return Optional.empty();
  }

  /**
   * The largest request the publisher's client sends with these settings, and the setting that
   * raises it; empty when the publisher has no such limit or the value is not a number (then {@link
   * #create} names it). A writer whose payload limit does not fit it would save messages that can
   * never be published: the Spring starter refuses that combination at startup.
   */
  default Optional<RequestLimit> requestLimit(Map<String, String> settings) {
    return Optional.empty();
  }

  /** A client's request size limit: {@code bytes}, set by the publisher setting {@code key}. */
  record RequestLimit(String key, long bytes) {}

  /**
   * A reader of the broker the publisher made from {@code settings} sends to: {@code verify} and
   * the daemon's reconciliation need one, and its {@link BrokerCheck#probe} tells readiness whether
   * the broker answers. Creating it opens no connection. Default: empty (the daemon refuses {@code
   * verify} and {@code reconcile} for this publisher, and judges readiness by publish outcomes).
   *
   * @param settings publisher settings, as for {@link #create}
   * @throws OutboxConfigException naming an invalid setting
   */
  default Optional<BrokerCheck> brokerCheck(Map<String, String> settings) {
    return Optional.empty();
  }

  /**
   * The factory named {@code name} on the class path of {@code loader} ({@link
   * java.util.ServiceLoader}), if any.
   */
  static Optional<PublisherFactory> find(String name, ClassLoader loader) {
    for (PublisherFactory f : java.util.ServiceLoader.load(PublisherFactory.class, loader)) {
      if (f.name().equals(name)) {
        return Optional.of(f);
      }
    }
    return Optional.empty();
  }
}
