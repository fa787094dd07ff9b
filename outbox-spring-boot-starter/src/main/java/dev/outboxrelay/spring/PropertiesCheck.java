package dev.outboxrelay.spring;

import dev.outboxrelay.core.MessageLimits;
import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.PublisherFactory;
import dev.outboxrelay.core.Secrets;
import dev.outboxrelay.core.Setting;
import dev.outboxrelay.core.SqlIdentifier;
import dev.outboxrelay.relay.cdc.CdcSettings;
import dev.outboxrelay.relay.polling.PollingSettings;
import java.time.Duration;
import java.util.Optional;
import org.springframework.util.ClassUtils;
import org.springframework.validation.Errors;

/** The rules of {@link OutboxProperties}; each error names the property key and its value. */
final class PropertiesCheck {
  private PropertiesCheck() {}

  static void validate(OutboxProperties p, Errors errors) {
    identifier(errors, "table.name", p.getTable().getName());
    if (p.getTable().getSchema() != null) {
      identifier(errors, "table.schema", p.getTable().getSchema());
    }
    if (p.getWriter().getMaxPayloadBytes() < 1) {
      reject(errors, "writer.maxPayloadBytes", p.getWriter().getMaxPayloadBytes(), "at least 1");
    }
    Duration wakeUp = p.getWriter().getWakeUpInterval();
    if (wakeUp == null || wakeUp.isNegative()) {
      reject(errors, "writer.wakeUpInterval", wakeUp, "0 (never notify) or more, such as 20ms");
    }
    relay(p.getRelay(), errors);
    String type = p.getPublisher().getType();
    if (type != null && type.isBlank()) {
      reject(errors, "publisher.type", type, "a PublisherFactory name such as kafka");
    }
    requestLimit(p, errors);
    String group = p.getDedup().getGroup();
    if (group != null && (group.isBlank() || group.length() > 255)) {
      reject(errors, "dedup.group", group, "1 to 255 characters");
    }
    identifier(errors, "dedup.tableName", p.getDedup().getTableName());
    identifier(errors, "dedup.highWaterMarkTableName", p.getDedup().getHighWaterMarkTableName());
  }

  private static void relay(OutboxProperties.Relay r, Errors errors) {
    boolean cdc = r.getMode() == OutboxProperties.RelayMode.CDC;
    if (r.getBatchSize() != null) {
      declared(errors, "relay.batchSize", PollingSettings.BATCH_SIZE, r.getBatchSize());
    }
    declared(
        errors, "relay.inFlightBatches", PollingSettings.IN_FLIGHT_BATCHES, r.getInFlightBatches());
    if (r.getPollInterval() != null) {
      declared(errors, "relay.pollInterval", PollingSettings.POLL_INTERVAL, r.getPollInterval());
    }
    declared(errors, "relay.leaseDuration", PollingSettings.LEASE_DURATION, r.getLeaseDuration());
    declared(
        errors, "relay.publishTimeout", PollingSettings.PUBLISH_TIMEOUT, r.getPublishTimeout());
    declared(
        errors, "relay.backoffInitial", PollingSettings.BACKOFF_INITIAL, r.getBackoffInitial());
    if (r.getBackoffInitial() != null) {
      atLeast(errors, "relay.backoffMax", r.getBackoffMax(), r.getBackoffInitial(), false);
    }
    atLeast(errors, "relay.keepFor", r.getKeepFor(), Duration.ofMillis(1), true);
    if (r.getName() != null) {
      // CdcSettings is only on the classpath with outbox-relay-cdc, which cdc mode needs anyway.
      declared(
          errors,
          "relay.name",
          cdc && cdcPresent() ? CdcSettings.NAME : PollingSettings.NAME,
          r.getName());
    }
    if (r.getDeadLetterTopic() != null) {
      declared(
          errors,
          "relay.deadLetterTopic",
          PollingSettings.DEAD_LETTER_TOPIC,
          r.getDeadLetterTopic());
    }
    if (r.isStrictOrder() && r.getMode() == OutboxProperties.RelayMode.CDC) {
      reject(errors, "relay.strictOrder", true, "false in cdc mode (polling on PostgreSQL only)");
    }
  }

  /**
   * A payload the writer accepts must fit the publisher's request limit, or it would be saved and
   * then park its key for good ({@link MessageLimits}: the limit must be at least the payload limit
   * plus {@value MessageLimits#ENVELOPE_BYTES} bytes for key, headers and framing). Only the
   * client's limit is known here; the broker's must be raised with it (the writer's README).
   */
  private static void requestLimit(OutboxProperties p, Errors errors) {
    String type = p.getPublisher().getType();
    if (type == null || type.isBlank()) {
      return;
    }
    // The publisher's own declaration of its limit, when its jar is here (the relay needs it):
    // looked up through the application's class loader (the thread's while Spring binds, as the
    // relay's publisher is through the context's), else the starter's.
    ClassLoader app = Thread.currentThread().getContextClassLoader();
    Optional<PublisherFactory> factory =
        app != null ? PublisherFactory.find(type, app) : Optional.empty();
    if (factory.isEmpty()) {
      factory = PublisherFactory.find(type, PropertiesCheck.class.getClassLoader());
    }
    Optional<PublisherFactory.RequestLimit> found =
        factory.flatMap(f -> f.requestLimit(p.getPublisher().getSettings()));
    if (found.isEmpty()) {
      return;
    }
    String key = found.get().key();
    long limit = found.get().bytes();
    long needed = (long) p.getWriter().getMaxPayloadBytes() + MessageLimits.ENVELOPE_BYTES;
    if (limit < needed) {
      reject(
          errors,
          "writer.maxPayloadBytes",
          p.getWriter().getMaxPayloadBytes(),
          "at most outbox.publisher.settings."
              + key
              + " ("
              + limit
              + ") - "
              + MessageLimits.ENVELOPE_BYTES
              + " = "
              + (limit - MessageLimits.ENVELOPE_BYTES)
              + ", or a message the writer accepts can never be published; raise "
              + key
              + " (and the broker's limit) or lower the writer's");
    }
  }

  private static void identifier(Errors errors, String field, String value) {
    try {
      SqlIdentifier.require(field, value);
    } catch (OutboxConfigException e) {
      reject(errors, field, value, "an SQL identifier ([A-Za-z_][A-Za-z0-9_]*, at most 63)");
    }
  }

  private static void atLeast(
      Errors errors, String field, Duration value, Duration min, boolean optional) {
    if (value == null ? !optional : value.compareTo(min) < 0) {
      reject(errors, field, value, "at least " + min);
    }
  }

  /** Rejects a value its declaration refuses, with the declaration's message. */
  private static <T> void declared(Errors errors, String field, Setting<T> setting, T value) {
    try {
      setting.check("outbox." + dashed(field), value);
    } catch (OutboxConfigException e) {
      errors.rejectValue(field, "outbox.invalid", e.getMessage());
    }
  }

  private static boolean cdcPresent() {
    return ClassUtils.isPresent(CdcRelayFactory.CLASS, PropertiesCheck.class.getClassLoader());
  }

  /** Rejects with "outbox.relay.batch-size must be between 1 and 10000, but was 0". */
  static void reject(Errors errors, String field, Object value, String rule) {
    String key = "outbox." + dashed(field);
    String message = key + " must be " + rule + ", but was " + Secrets.maskIfSecret(key, value);
    errors.rejectValue(field, "outbox.invalid", message);
  }

  static String dashed(String field) {
    return field.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
  }
}
