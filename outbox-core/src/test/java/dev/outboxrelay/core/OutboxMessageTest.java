package dev.outboxrelay.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OutboxMessageTest {
  private final OutboxMessageBuilder valid =
      OutboxMessage.builder().aggregateType("order").aggregateId("42").type("Placed").payload("{}");

  @Test
  void isImmutable() {
    byte[] body = "abc".getBytes(StandardCharsets.UTF_8);
    OutboxMessage m = valid.payload(body).header("h", "v").build();
    body[0] = 'x';
    m.payload()[1] = 'x';
    assertThat(m.payloadAsString()).isEqualTo("abc");
    assertThatThrownBy(() -> m.headers().put("h2", "v"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void traceparentHeaderGoesToItsOwnField() {
    String trace = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    OutboxMessage m = valid.header("traceparent", trace).build();
    assertThat(m.traceparent()).contains(trace);
    assertThat(m.headers()).isEmpty();
  }

  @Test
  void reservedHeaderIsRejectedWhateverItsCase() {
    assertThatThrownBy(() -> valid.header("AggregateType", "x").build())
        .isInstanceOfSatisfying(
            InvalidMessageException.class,
            e -> assertThat(e.field()).isEqualTo("headers.AggregateType"))
        .hasMessageContaining("reserved");
  }

  @Test
  void overlongKeyNamesItsLength() {
    assertThatThrownBy(() -> valid.aggregateId("k".repeat(300)).build())
        .hasMessage(
            "Invalid outbox message: aggregateid must be at most 255 characters, but was 300");
  }

  @Test
  void toStringLeavesOutPayloadAndHeaders() {
    OutboxMessage m = valid.payload("secret-body").header("authorization", "Bearer x").build();
    assertThat(m.toString()).doesNotContain("secret-body").doesNotContain("Bearer");
  }

  @Test
  void toBuilderRoundTrips() {
    OutboxMessage m = valid.header("a", "b").sequence(7).build();
    assertThat(m.toBuilder().build()).isEqualTo(m);
  }
}
