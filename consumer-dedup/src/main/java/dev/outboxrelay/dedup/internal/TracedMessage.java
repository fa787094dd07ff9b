package dev.outboxrelay.dedup.internal;

/**
 * What a consumer span needs to know about a message, read from its broker headers; no
 * OpenTelemetry type, so adapters build it whether or not the API is on the classpath.
 *
 * @param system {@code messaging.system}: {@code kafka} or {@code rocketmq}
 * @param destination the topic, or {@code null}
 * @param id the outbox message id, or {@code null} when the message has none
 * @param traceparent the W3C {@code traceparent} header, or {@code null}
 * @param tracestate the W3C {@code tracestate} header, or {@code null}
 */
public record TracedMessage(
    String system, String destination, String id, String traceparent, String tracestate) {}
