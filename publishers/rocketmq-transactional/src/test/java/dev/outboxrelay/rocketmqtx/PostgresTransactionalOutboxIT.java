package dev.outboxrelay.rocketmqtx;

import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresTransactionalOutboxIT extends TransactionalOutboxContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();
  @RegisterExtension static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

  @Override
  protected OpenTelemetryExtension otel() {
    return OTEL;
  }

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }
}
