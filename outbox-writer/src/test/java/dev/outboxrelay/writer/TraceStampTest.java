package dev.outboxrelay.writer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.MessageLimits;
import dev.outboxrelay.core.OutboxMessage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class TraceStampTest {
  @RegisterExtension static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

  private static final String OWN = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  private final Tracer tracer = OTEL.getOpenTelemetry().getTracer("test");

  @Test
  void aMessageSavedInsideASpanTakesTheSpansTraceparentAndTracestate() {
    Span span = spanWithState(TraceState.builder().put("vendor", "a1").build());
    OutboxMessage m = inside(span, () -> only(TraceStamp.stamp(List.of(message()))));
    assertThat(m.traceparent()).contains(traceparent(span));
    assertThat(m.headers()).containsEntry("tracestate", "vendor=a1");
  }

  @Test
  void aTraceparentTheCallerSetWinsAndKeepsItsOwnTracestate() {
    OutboxMessage own = message().toBuilder().traceparent(OWN).header("tracestate", "x=1").build();
    Span span = spanWithState(TraceState.builder().put("vendor", "a1").build());
    List<OutboxMessage> given = List.of(own);
    assertThat(inside(span, () -> TraceStamp.stamp(given))).isSameAs(given);
  }

  @Test
  void withoutACurrentSpanNothingIsWritten() {
    List<OutboxMessage> given = List.of(message());
    assertThat(TraceStamp.stamp(given)).isSameAs(given);
    assertThat(inside(Span.getInvalid(), () -> TraceStamp.stamp(given))).isSameAs(given);
  }

  @Test
  void aStaleTracestateHeaderIsRemovedWhenTheContextHasNone() {
    OutboxMessage stale = message().toBuilder().header("tracestate", "old=1").build();
    Span span = tracer.spanBuilder("save").setNoParent().startSpan();
    OutboxMessage m = inside(span, () -> only(TraceStamp.stamp(List.of(stale))));
    assertThat(m.traceparent()).contains(traceparent(span));
    assertThat(m.headers()).doesNotContainKey("tracestate");
  }

  @Test
  void aTracestateThatWouldOverflowTheHeadersIsLeftOutButTheTraceparentStays() {
    String big = "v".repeat(MessageLimits.MAX_HEADERS_BYTES - 200);
    OutboxMessage full = message().toBuilder().header("big", big).build();
    Span span = spanWithState(TraceState.builder().put("vendor", "a".repeat(250)).build());
    OutboxMessage m = inside(span, () -> only(TraceStamp.stamp(List.of(full))));
    assertThat(m.traceparent()).contains(traceparent(span));
    assertThat(m.headers()).doesNotContainKey("tracestate").containsEntry("big", big);
  }

  @Test
  void onlyTheMessagesWithoutTheirOwnTraceparentAreStamped() {
    OutboxMessage own = message().toBuilder().traceparent(OWN).build();
    Span span = tracer.spanBuilder("save").setNoParent().startSpan();
    List<OutboxMessage> out =
        List.copyOf(inside(span, () -> TraceStamp.stamp(List.of(own, message()))));
    assertThat(out.get(0)).isSameAs(own);
    assertThat(out.get(1).traceparent()).contains(traceparent(span));
  }

  private Span spanWithState(TraceState state) {
    SpanContext remote =
        SpanContext.createFromRemoteParent(
            "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", TraceFlags.getSampled(), state);
    return tracer.spanBuilder("save").setParent(Context.root().with(Span.wrap(remote))).startSpan();
  }

  private static <T> T inside(Span span, Supplier<T> work) {
    try (Scope ignored = span.makeCurrent()) {
      return work.get();
    } finally {
      span.end();
    }
  }

  private static String traceparent(Span span) {
    SpanContext c = span.getSpanContext();
    return "00-" + c.getTraceId() + "-" + c.getSpanId() + "-" + c.getTraceFlags().asHex();
  }

  private static OutboxMessage only(Collection<OutboxMessage> messages) {
    assertThat(messages).hasSize(1);
    return messages.iterator().next();
  }

  private static OutboxMessage message() {
    return WriterFixture.message("o-1");
  }
}
