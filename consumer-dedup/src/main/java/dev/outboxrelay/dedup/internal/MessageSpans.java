package dev.outboxrelay.dedup.internal;

import java.util.List;

/**
 * Consumer spans for handlers, made by OpenTelemetry when its API is on the classpath and by
 * nothing otherwise. This interface and {@link #of} name no OpenTelemetry type; {@code OtelSpans},
 * which does, is loaded only after the API was found.
 */
public interface MessageSpans {
  /** Makes no spans. */
  MessageSpans NONE = new MessageSpans() {};

  /** Whether OpenTelemetry's API is on the classpath; looked up once. */
  boolean OPENTELEMETRY = Present.OPENTELEMETRY;

  /**
   * Spans of the consumer group {@code group}: OpenTelemetry's when its API is present, with the
   * tracer of {@code openTelemetry} (an {@code io.opentelemetry.api.OpenTelemetry}) or, when it is
   * {@code null}, of {@code GlobalOpenTelemetry} looked up at the first span; else {@link #NONE}.
   */
  static MessageSpans of(Object openTelemetry, String group) {
    return OPENTELEMETRY ? new OtelSpans(openTelemetry, group) : NONE;
  }

  /**
   * Starts and makes current the span of one message: its parent is the message's trace context
   * when it has a valid one (with a link to it as well), else the current context.
   */
  default SpanScope message(TracedMessage message) {
    return SpanScope.NONE;
  }

  /** Starts and makes current one span for a batch, with a link to each message's context. */
  default SpanScope batch(List<TracedMessage> messages) {
    return SpanScope.NONE;
  }

  /** Holds the lookup, so that {@link #NONE} needs no class loading. */
  final class Present {
    static final boolean OPENTELEMETRY =
        present("io.opentelemetry.api.GlobalOpenTelemetry")
            && present("io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator");

    private Present() {}

    private static boolean present(String className) {
      try {
        Class.forName(className, false, MessageSpans.class.getClassLoader());
        return true;
      } catch (ClassNotFoundException | LinkageError e) {
        return false;
      }
    }
  }
}
