package dev.outboxrelay.dedup.internal;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.List;
import java.util.Objects;

/**
 * OpenTelemetry's consumer spans (messaging semantic conventions: span name {@code process
 * <destination>}, kind CONSUMER). The only class of consumer-dedup that names OpenTelemetry types;
 * created by {@link MessageSpans#of} only when the API is present. Thread-safe.
 */
final class OtelSpans implements MessageSpans {
  static final String SCOPE_NAME = "dev.outboxrelay.dedup";
  static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("messaging.system");
  static final AttributeKey<String> DESTINATION =
      AttributeKey.stringKey("messaging.destination.name");
  static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
  static final AttributeKey<String> GROUP = AttributeKey.stringKey("messaging.consumer.group.name");
  static final AttributeKey<String> OPERATION_TYPE =
      AttributeKey.stringKey("messaging.operation.type");
  static final AttributeKey<String> OPERATION_NAME =
      AttributeKey.stringKey("messaging.operation.name");
  static final AttributeKey<Long> BATCH_COUNT =
      AttributeKey.longKey("messaging.batch.message_count");
  static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("outbox.dedup.outcome");

  private static final TextMapGetter<TracedMessage> HEADERS =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(TracedMessage m) {
          return List.of("traceparent", "tracestate");
        }

        @Override
        public String get(TracedMessage m, String key) {
          if (m == null) {
            return null;
          }
          return switch (key) {
            case "traceparent" -> m.traceparent();
            case "tracestate" -> m.tracestate();
            default -> null;
          };
        }
      };

  private final OpenTelemetry given; // null: GlobalOpenTelemetry, at the first span
  private final String group;
  private volatile Tracer tracer;

  OtelSpans(Object openTelemetry, String group) {
    this.given = (OpenTelemetry) openTelemetry;
    this.group = group;
  }

  @Override
  public SpanScope message(TracedMessage m) {
    SpanBuilder b = builder(m.destination(), m.system()).setAttribute(MESSAGE_ID, m.id());
    SpanContext sent = sent(m);
    if (sent.isValid()) {
      b.setParent(Context.current().with(Span.wrap(sent))).addLink(sent);
    }
    return open(b);
  }

  @Override
  public SpanScope batch(List<TracedMessage> messages) {
    String destination = messages.isEmpty() ? null : messages.get(0).destination();
    for (TracedMessage m : messages) {
      if (!Objects.equals(destination, m.destination())) {
        destination = null; // several topics: the span is named after the operation alone
        break;
      }
    }
    String system = messages.isEmpty() ? null : messages.get(0).system();
    SpanBuilder b = builder(destination, system).setAttribute(BATCH_COUNT, (long) messages.size());
    for (TracedMessage m : messages) {
      SpanContext sent = sent(m);
      if (sent.isValid()) {
        b.addLink(sent, m.id() == null ? Attributes.empty() : Attributes.of(MESSAGE_ID, m.id()));
      }
    }
    return open(b);
  }

  /** The message's W3C context, as the writer took it from the span around {@code save}. */
  private static SpanContext sent(TracedMessage m) {
    if (m.traceparent() == null) {
      return SpanContext.getInvalid();
    }
    Context extracted = W3CTraceContextPropagator.getInstance().extract(Context.root(), m, HEADERS);
    return Span.fromContext(extracted).getSpanContext();
  }

  private SpanBuilder builder(String destination, String system) {
    return tracer()
        .spanBuilder(destination == null ? "process" : "process " + destination)
        .setSpanKind(SpanKind.CONSUMER)
        .setAttribute(SYSTEM, system)
        .setAttribute(DESTINATION, destination)
        .setAttribute(OPERATION_TYPE, "process")
        .setAttribute(OPERATION_NAME, "process")
        .setAttribute(GROUP, group);
  }

  private Tracer tracer() {
    Tracer t = tracer;
    if (t == null) {
      // Looked up late: GlobalOpenTelemetry.get() fixes the global instance, which an application
      // may set after building its consumers.
      t = (given != null ? given : GlobalOpenTelemetry.get()).getTracer(SCOPE_NAME);
      tracer = t;
    }
    return t;
  }

  private static SpanScope open(SpanBuilder b) {
    Span span = b.startSpan();
    return new Open(span, span.makeCurrent());
  }

  private record Open(Span span, Scope scope) implements SpanScope {
    @Override
    public void outcome(String outcome) {
      span.setAttribute(OUTCOME, outcome);
    }

    @Override
    public void failed(Throwable failure) {
      span.recordException(failure);
      span.setStatus(StatusCode.ERROR, failure.getClass().getName());
    }

    @Override
    public void close() {
      scope.close();
      span.end();
    }
  }
}
