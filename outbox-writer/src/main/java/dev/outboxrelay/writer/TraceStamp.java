package dev.outboxrelay.writer;

import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.MessageLimits;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxMessageBuilder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stamps messages that have no traceparent with the current OpenTelemetry trace context (W3C {@code
 * traceparent}, and {@code tracestate} as a user header). OpenTelemetry's API is optional: this
 * class names none of its types, and {@link OtelContext} (which does) is touched only when the API
 * was found, so without it nothing changes and nothing fails.
 */
final class TraceStamp {
  private static final Logger log = LoggerFactory.getLogger(TraceStamp.class);

  /** Whether OpenTelemetry's API is on the classpath; looked up once. */
  static final boolean OPENTELEMETRY =
      present("io.opentelemetry.context.Context")
          && present("io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator");

  private TraceStamp() {}

  /**
   * The messages, those without a traceparent stamped with the current span's context; the same
   * collection when there is nothing to stamp (no OpenTelemetry, no valid current span, or every
   * message has its own traceparent: the caller's always wins).
   */
  static Collection<OutboxMessage> stamp(Collection<OutboxMessage> messages) {
    if (!OPENTELEMETRY || messages.stream().allMatch(TraceStamp::hasOwn)) {
      return messages;
    }
    Map<String, String> current = OtelContext.currentW3c();
    String traceparent = current.get(MessageContract.HEADER_TRACEPARENT);
    if (traceparent == null) {
      return messages;
    }
    String tracestate = current.get(MessageContract.HEADER_TRACESTATE);
    List<OutboxMessage> stamped = new ArrayList<>(messages.size());
    for (OutboxMessage m : messages) {
      stamped.add(hasOwn(m) ? m : stamp(m, traceparent, tracestate));
    }
    return stamped;
  }

  /** A null message (refused later by validation) or one whose caller set a traceparent. */
  private static boolean hasOwn(OutboxMessage m) {
    return m == null || m.traceparent().isPresent();
  }

  /**
   * The pair travels together: a tracestate header the message had is replaced by the context's, or
   * removed when the context has none or when the context's would push the user headers past {@link
   * MessageLimits#MAX_HEADERS_BYTES} (the save must not fail for tracing).
   */
  static OutboxMessage stamp(OutboxMessage m, String traceparent, String tracestate) {
    OutboxMessageBuilder b =
        m.toBuilder().traceparent(traceparent).removeHeader(MessageContract.HEADER_TRACESTATE);
    if (tracestate != null && !tracestate.isEmpty()) {
      int without = MessageLimits.headersBytes(b.build().headers());
      int with =
          without
              + MessageLimits.headersBytes(Map.of(MessageContract.HEADER_TRACESTATE, tracestate));
      if (with <= MessageLimits.MAX_HEADERS_BYTES) {
        b.header(MessageContract.HEADER_TRACESTATE, tracestate);
      } else {
        log.debug("Message {}: tracestate left out, the headers would exceed their limit", m.id());
      }
    }
    return b.build();
  }

  private static boolean present(String className) {
    try {
      Class.forName(className, false, TraceStamp.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
