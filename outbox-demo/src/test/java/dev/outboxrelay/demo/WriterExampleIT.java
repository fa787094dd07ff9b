package dev.outboxrelay.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.testing.DatabaseExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Keeps the README's example working on both databases. */
class WriterExampleIT {
  @RegisterExtension static final DatabaseExtension PG = DatabaseExtension.postgres();
  @RegisterExtension static final DatabaseExtension MARIA = DatabaseExtension.mariadb();

  @Test
  void leavesOnlyCommittedEventsOnPostgres() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(WriterExample.run(PG.server(), new PrintStream(out, true, StandardCharsets.UTF_8)))
        .isEqualTo(4);
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("order-3: rolled back")
        .doesNotContain("| order-3 ");
  }

  @Test
  void leavesOnlyCommittedEventsOnMariaDb() throws Exception {
    assertThat(
            WriterExample.run(
                MARIA.server(),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
        .isEqualTo(4);
  }
}
