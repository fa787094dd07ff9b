package dev.outboxrelay.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.InvalidMessageException;
import dev.outboxrelay.core.OutboxException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxMessageBuilder;
import dev.outboxrelay.testing.LargestMessage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What every database must show for the writer; a subclass per database. */
abstract class WriterContract extends WriterFixture {

  @Test
  void rolledBackTransactionLeavesNoRow() throws Exception {
    createOrders();
    try (Connection c = begin()) {
      insertOrder(c, "o-1");
      outbox.save(c, message("o-1"));
      c.rollback();
    }
    assertThat(rows()).isEmpty();
  }

  @Test
  void committedTransactionLeavesOneByteIdenticalRow() throws Exception {
    createOrders();
    byte[] payload = new byte[4096];
    ThreadLocalRandom.current().nextBytes(payload);
    OutboxMessage sent =
        message("o-2").toBuilder()
            .payload(payload)
            .header("tenant", "acme")
            .header("content-type", "application/octet-stream")
            .traceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
            .build();
    try (Connection c = begin()) {
      insertOrder(c, "o-2");
      outbox.save(c, sent);
      c.commit();
    }
    List<OutboxMessage> rows = rows();
    assertThat(rows).hasSize(1);
    OutboxMessage stored = rows.get(0);
    assertThat(stored.payload()).isEqualTo(payload);
    assertThat(stored.sequence()).isPresent();
    assertThat(stored.createdAt()).isPresent();
    assertThat(stored.toBuilder().sequence(0).createdAt(null).build())
        .isEqualTo(sent.toBuilder().sequence(0).header("seq-order", "key").build());
  }

  @Test
  void aSaveInsideASpanStoresTheSpansTraceContextAndTheCallersOwnWins() throws Exception {
    String own = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    SpanContext remote =
        SpanContext.createFromRemoteParent(
            "4bf92f3577b34da6a3ce929d0e0e4736",
            "00f067aa0ba902b7",
            TraceFlags.getSampled(),
            TraceState.builder().put("vendor", "a1").build());
    Span span =
        SdkTracerProvider.builder()
            .build()
            .get("test")
            .spanBuilder("place order")
            .setParent(Context.root().with(Span.wrap(remote)))
            .startSpan();
    try (Connection c = begin();
        Scope ignored = span.makeCurrent()) {
      outbox.saveAll(
          c, List.of(message("o-1"), message("o-2").toBuilder().traceparent(own).build()));
      c.commit();
    } finally {
      span.end();
    }
    List<OutboxMessage> rows = rows();
    assertThat(rows.get(0).traceparent())
        .contains(
            "00-4bf92f3577b34da6a3ce929d0e0e4736-" + span.getSpanContext().getSpanId() + "-01");
    assertThat(rows.get(0).headers()).containsEntry("tracestate", "vendor=a1");
    assertThat(rows.get(1).traceparent()).contains(own);
    assertThat(rows.get(1).headers()).doesNotContainKey("tracestate");
  }

  @Test
  void saveAllWritesAThousandMessagesInOneTransactionInOrder() throws Exception {
    List<OutboxMessage> batch = new ArrayList<>();
    IntStream.range(0, 1000).forEach(i -> batch.add(message("key-" + (i % 37))));
    try (Connection c = begin()) {
      outbox.saveAll(c, batch);
      c.commit();
    }
    assertThat(ids()).containsExactlyElementsOf(batch.stream().map(OutboxMessage::id).toList());
  }

  @Test
  void concurrentWritersLeaveExactlyTheCommittedRows() throws Exception {
    Set<UUID> committed = ConcurrentHashMap.newKeySet();
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < 16; w++) {
        int writer = w;
        writers.add(pool.submit(() -> writeRandomly(writer, committed)));
      }
      for (Future<?> f : writers) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(new HashSet<>(ids())).isEqualTo(committed);
  }

  private Void writeRandomly(int writer, Set<UUID> committed) throws Exception {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    try (Connection c = begin()) {
      for (int tx = 0; tx < 25; tx++) {
        List<OutboxMessage> messages = new ArrayList<>();
        for (int i = 0; i <= random.nextInt(3); i++) {
          messages.add(message("writer-" + writer + "-" + random.nextInt(5)));
        }
        outbox.saveAll(c, messages);
        if (random.nextInt(4) == 0) {
          c.rollback();
        } else {
          c.commit();
          messages.forEach(m -> committed.add(m.id()));
        }
      }
    }
    return null;
  }

  @Test
  void jdbiHandleJoinsItsTransaction() throws Exception {
    Jdbi jdbi = Jdbi.create(server().jdbcUrl(database), server().user(), server().password());
    JdbiOutbox jdbiOutbox = JdbiOutbox.of(outbox);
    OutboxMessage kept = message("jdbi-1");
    jdbi.useTransaction(h -> jdbiOutbox.save(h, kept));
    assertThatThrownBy(
            () ->
                jdbi.useTransaction(
                    h -> {
                      jdbiOutbox.save(h, message("jdbi-2"));
                      throw new IllegalStateException("business rule failed");
                    }))
        .hasMessage("business rule failed");
    assertThat(ids()).containsExactly(kept.id());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.outboxrelay.writer.InvalidMessages#all")
  void invalidInputIsRejectedNamingTheFieldAndNothingIsWritten(
      String field, UnaryOperator<OutboxMessageBuilder> breakIt) throws Exception {
    try (Connection c = begin()) {
      assertThatThrownBy(
              () ->
                  outbox.saveAll(
                      c, List.of(message("ok"), breakIt.apply(InvalidMessages.valid()).build())))
          .isInstanceOfSatisfying(
              InvalidMessageException.class, e -> assertThat(e.field()).isEqualTo(field))
          .hasMessageContaining(field);
      c.commit();
    }
    assertThat(rows()).isEmpty();
  }

  @Test
  void autoCommitConnectionIsRefusedAndNothingIsWritten() throws Exception {
    try (Connection c = connect()) {
      assertThatThrownBy(() -> outbox.save(c, message("auto")))
          .isInstanceOf(OutboxException.class)
          .hasMessageContaining("auto-commit");
    }
    assertThat(rows()).isEmpty();
  }

  @Test
  void oversizedPayloadIsRejectedBeforeAnySql() throws Exception {
    OutboxMessage big = message("big").toBuilder().payload(new byte[64 * 1024 + 1]).build();
    try (Connection c = begin()) {
      assertThatThrownBy(() -> outbox.saveAll(c, List.of(message("ok"), big)))
          .isInstanceOfSatisfying(
              InvalidMessageException.class, e -> assertThat(e.field()).isEqualTo("payload"))
          .hasMessageContaining("at most 65536 bytes, but was 65537");
      c.commit();
    }
    assertThat(rows()).isEmpty();
  }

  @Test
  void theLargestMessageWithDefaultLimitsIsSavedAndOneByteMoreIsRefused() throws Exception {
    Outbox defaults = Outbox.builder().build();
    OutboxMessage largest = LargestMessage.of("order");
    OutboxMessage payloadPlusOne =
        largest.toBuilder()
            .id(UUID.randomUUID())
            .payload(new byte[largest.payloadSize() + 1])
            .build();
    OutboxMessage headersPlusOne =
        largest.toBuilder()
            .id(UUID.randomUUID())
            .header("h00", largest.headers().get("h00") + "v")
            .build();
    try (Connection c = begin()) {
      assertThatThrownBy(() -> defaults.save(c, payloadPlusOne))
          .isInstanceOfSatisfying(
              InvalidMessageException.class, e -> assertThat(e.field()).isEqualTo("payload"))
          .hasMessageContaining("at most 1015808 bytes, but was 1015809");
      assertThatThrownBy(() -> defaults.save(c, headersPlusOne))
          .isInstanceOfSatisfying(
              InvalidMessageException.class, e -> assertThat(e.field()).isEqualTo("headers"))
          .hasMessageContaining("at most 16384 bytes")
          .hasMessageContaining("but took 16385");
      defaults.save(c, largest);
      c.commit();
    }
    List<OutboxMessage> rows = rows();
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).payload()).isEqualTo(largest.payload());
    // The writer adds its key-order marker (seq-order: key) beside the user's headers; that marker
    // is one of the contract headers MessageLimits.ENVELOPE_BYTES leaves room for.
    assertThat(rows.get(0).headers()).isEqualTo(LargestMessage.asWritten("order").headers());
    assertThat(rows.get(0).aggregateId()).isEqualTo(largest.aggregateId());
  }
}
