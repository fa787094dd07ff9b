package dev.outboxrelay.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import java.sql.Connection;
import java.util.List;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Run by the {@code without-opentelemetry} failsafe execution, whose classpath has no {@code
 * io.opentelemetry} artifact: the writer saves as before and writes no trace context.
 */
class PostgresWithoutOpenTelemetryIT extends WriterFixture {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @Override
  DatabaseServer server() {
    return DB.server();
  }

  @Test
  void opentelemetryIsReallyOffTheClasspath() {
    assertThatThrownBy(() -> Class.forName("io.opentelemetry.context.Context"))
        .isInstanceOf(ClassNotFoundException.class);
    assertThat(TraceStamp.OPENTELEMETRY).isFalse();
  }

  @Test
  void saveWorksAndWritesNoTraceContext() throws Exception {
    OutboxMessage plain = message("o-1");
    OutboxMessage own =
        message("o-2").toBuilder()
            .traceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
            .build();
    try (Connection c = begin()) {
      outbox.saveAll(c, List.of(plain, own));
      c.commit();
    }
    Jdbi.create(this::connect).useTransaction(h -> JdbiOutbox.of(outbox).save(h, message("o-3")));
    List<OutboxMessage> rows = rows();
    assertThat(rows).hasSize(3);
    assertThat(rows.get(0).traceparent()).isEmpty();
    assertThat(rows.get(0).headers()).doesNotContainKey("tracestate");
    assertThat(rows.get(1).traceparent()).isEqualTo(own.traceparent());
    assertThat(rows.get(2).traceparent()).isEmpty();
  }
}
