package dev.outboxrelay.writer;

import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import java.util.HashMap;
import java.util.Map;

/**
 * The only writer class that names OpenTelemetry types; loaded only when {@link
 * TraceStamp#OPENTELEMETRY} found the API. W3C propagation, not the global propagators: the table
 * and the broker contract carry W3C {@code traceparent} / {@code tracestate} and nothing else, and
 * this needs no global OpenTelemetry instance.
 */
final class OtelContext {
  private OtelContext() {}

  /**
   * The current context as W3C headers: {@code traceparent}, and {@code tracestate} when not empty;
   * empty when no valid span is current.
   */
  static Map<String, String> currentW3c() {
    Map<String, String> carrier = new HashMap<>(4);
    W3CTraceContextPropagator.getInstance().inject(Context.current(), carrier, Map::put);
    return carrier;
  }
}
