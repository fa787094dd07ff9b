package dev.outboxrelay.dedup.internal;

import static io.opentelemetry.sdk.testing.assertj.OpenTelemetryAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class OtelSpansTest {
  @RegisterExtension static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

  static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  static final String SENT = "00f067aa0ba902b7";
  static final String TRACEPARENT = "00-" + TRACE + "-" + SENT + "-01";

  private final MessageSpans spans = MessageSpans.of(OTEL.getOpenTelemetry(), "billing");

  @Test
  void aMessageSpanIsAConsumerChildOfTheSentContextWithALinkToIt() {
    Span inside;
    try (SpanScope span = spans.message(message("orders", "m-1", TRACEPARENT, "vendor=a1"))) {
      inside = Span.current();
      span.outcome("processed");
    }
    SpanData s = only();
    assertThat(inside.getSpanContext()).isEqualTo(s.getSpanContext());
    assertThat(s)
        .hasName("process orders")
        .hasKind(SpanKind.CONSUMER)
        .hasTraceId(TRACE)
        .hasParentSpanId(SENT)
        .hasAttribute(OtelSpans.SYSTEM, "kafka")
        .hasAttribute(OtelSpans.DESTINATION, "orders")
        .hasAttribute(OtelSpans.MESSAGE_ID, "m-1")
        .hasAttribute(OtelSpans.GROUP, "billing")
        .hasAttribute(OtelSpans.OPERATION_TYPE, "process")
        .hasAttribute(OtelSpans.OUTCOME, "processed");
    assertThat(s.getLinks()).hasSize(1);
    assertThat(s.getLinks().get(0).getSpanContext().getSpanId()).isEqualTo(SENT);
    assertThat(s.getLinks().get(0).getSpanContext().getTraceState().get("vendor")).isEqualTo("a1");
    assertThat(s.getLinks().get(0).getSpanContext().isRemote()).isTrue();
  }

  @Test
  void withoutAValidTraceparentTheSpanIsAChildOfTheCurrentContextWithoutLink() {
    Span outer = OTEL.getOpenTelemetry().getTracer("test").spanBuilder("poll").startSpan();
    try (Scope ignored = outer.makeCurrent()) {
      spans.message(message("orders", "m-1", null, null)).close();
      spans.message(message("orders", "m-2", "00-not-a-trace", null)).close();
    } finally {
      outer.end();
    }
    List<SpanData> consumer =
        OTEL.getSpans().stream().filter(s -> s.getKind() == SpanKind.CONSUMER).toList();
    assertThat(consumer).hasSize(2);
    for (SpanData s : consumer) {
      assertThat(s.getParentSpanId()).isEqualTo(outer.getSpanContext().getSpanId());
      assertThat(s.getLinks()).isEmpty();
    }
  }

  @Test
  void aFailureIsRecordedWithStatusError() {
    try (SpanScope span = spans.message(message("orders", "m-1", TRACEPARENT, null))) {
      span.failed(new IllegalStateException("boom"));
    }
    SpanData s = only();
    assertThat(s).hasStatusSatisfying(st -> st.hasCode(StatusCode.ERROR));
    assertThat(s.getEvents()).anyMatch(e -> e.getName().equals("exception"));
  }

  @Test
  void aBatchSpanLinksEachMessageWithAValidContext() {
    String other = "00-" + "a".repeat(32) + "-" + "b".repeat(16) + "-01";
    spans
        .batch(
            List.of(
                message("orders", "m-1", TRACEPARENT, null),
                message("orders", "m-2", null, null),
                message("orders", "m-3", other, null)))
        .close();
    SpanData s = only();
    assertThat(s)
        .hasName("process orders")
        .hasKind(SpanKind.CONSUMER)
        .hasNoParent()
        .hasAttribute(OtelSpans.BATCH_COUNT, 3L);
    assertThat(s.getLinks())
        .extracting(LinkData::getSpanContext)
        .extracting(c -> c.getSpanId())
        .containsExactly(SENT, "b".repeat(16));
    assertThat(s.getLinks().get(0).getAttributes().get(OtelSpans.MESSAGE_ID)).isEqualTo("m-1");
  }

  @Test
  void aBatchOverSeveralTopicsIsNamedAfterTheOperationAlone() {
    spans
        .batch(
            List.of(
                message("orders", "m-1", TRACEPARENT, null),
                message("payments", "m-2", TRACEPARENT, null)))
        .close();
    assertThat(only()).hasName("process");
    assertThat(only().getAttributes().get(OtelSpans.DESTINATION)).isNull();
  }

  @Test
  void byDefaultTheTracerIsGlobalOpenTelemetrys() {
    // OpenTelemetryExtension registers its SDK as GlobalOpenTelemetry.
    MessageSpans global = MessageSpans.of(null, "billing");
    global.message(message("orders", "m-1", TRACEPARENT, null)).close();
    assertThat(only()).hasTraceId(TRACE);
  }

  private static TracedMessage message(
      String topic, String id, String traceparent, String tracestate) {
    return new TracedMessage("kafka", topic, id, traceparent, tracestate);
  }

  private static SpanData only() {
    assertThat(OTEL.getSpans()).hasSize(1);
    return OTEL.getSpans().get(0);
  }
}
