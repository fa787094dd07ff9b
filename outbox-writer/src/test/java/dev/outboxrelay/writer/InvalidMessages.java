package dev.outboxrelay.writer;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxMessageBuilder;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** Each kind of invalid input and the field its error must name. */
final class InvalidMessages {
  private InvalidMessages() {}

  static OutboxMessageBuilder valid() {
    return OutboxMessage.builder().aggregateType("order").aggregateId("1").type("T").payload("{}");
  }

  static Stream<Arguments> all() {
    return Stream.of(
        kind("id", b -> b.id(null)),
        kind("aggregatetype", b -> b.aggregateType(null)),
        kind("aggregatetype", b -> b.aggregateType("  ")),
        kind("aggregateid", b -> b.aggregateId(null)),
        kind("aggregateid", b -> b.aggregateId("")),
        kind("aggregateid", b -> b.aggregateId("x".repeat(256))),
        kind("type", b -> b.type(null)),
        kind("type", b -> b.type("\t")),
        kind("payload", b -> b.payload((byte[]) null)),
        kind("headers", b -> b.header("bad name", "v")),
        kind("headers", b -> b.header("", "v")),
        kind("headers", b -> b.header("x".repeat(129), "v")),
        kind("headers.id", b -> b.header("id", "v")),
        kind("headers.Type", b -> b.header("Type", "v")),
        kind("headers.tenant", b -> b.header("tenant", null)),
        kind("traceparent", b -> b.traceparent("not-a-trace")));
  }

  private static Arguments kind(String field, UnaryOperator<OutboxMessageBuilder> breakIt) {
    return Arguments.of(field, breakIt);
  }
}
