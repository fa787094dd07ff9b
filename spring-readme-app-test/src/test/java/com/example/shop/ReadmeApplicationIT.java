package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.KafkaExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ShopApplication} as a process of its own, on the classpath Maven resolves for the
 * dependencies the starter's README names (this module's runtime scope, written to {@code
 * target/application.classpath}; the test kit is not on it), against a real PostgreSQL and Kafka
 * broker: every committed order shipped exactly once, no refused one, the outbox drained, the
 * health indicator UP, the meters registered, and the database password in no line of output.
 */
class ReadmeApplicationIT {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  @Test
  void theApplicationShipsEveryCommittedOrderOnceWithTheReadmesDependenciesAlone()
      throws Exception {
    String db = DB.server().createDatabase();
    KAFKA.server().createTopic("outbox.event.order", 3);
    // The test server trusts local connections: any password logs in, and one nobody else uses
    // shows whether the application printed it (the server's own, "outbox", is in every line).
    String password = "pw-" + UUID.randomUUID();
    Path output = Files.createTempFile(Path.of("target"), "shop-", ".log");
    Process app =
        new ProcessBuilder(
                javaCommand(),
                "-cp",
                applicationClasspath(),
                ShopApplication.class.getName(),
                "--spring.datasource.url=" + DB.server().jdbcUrl(db),
                "--spring.datasource.username=" + DB.server().user(),
                "--spring.datasource.password=" + password,
                "--spring.kafka.bootstrap-servers=" + KAFKA.server().bootstrapServers(),
                "--shop.orders=50")
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    boolean exited = app.waitFor(3, TimeUnit.MINUTES);
    if (!exited) {
      app.destroyForcibly().waitFor();
    }
    String log = Files.readString(output, StandardCharsets.UTF_8);
    assertThat(exited).as("the application exited within 3 minutes; its output:%n%s", log).isTrue();
    assertThat(app.exitValue()).as("exit code; the application's output:%n%s", log).isZero();
    assertThat(log)
        .contains("shop: placed 50, committed 45, shipped 45")
        .contains("shop: outbox health UP")
        .containsPattern("shop: outbox meters \\[.*outbox\\.backlog\\.messages.*\\]")
        .containsPattern("shop: outbox meters \\[.*outbox\\.dedup\\.outcomes.*\\]")
        .containsPattern("shop: outbox meters \\[.*outbox\\.published.*\\]")
        .containsPattern("shop: outbox meters \\[.*outbox\\.relay\\.ready.*\\]");
    assertThat(log).as("the database password").doesNotContain(password);

    try (Connection c = DB.server().connect(db)) {
      assertThat(strings(c, "SELECT order_id FROM shipments ORDER BY order_id"))
          .as("one shipment per committed order, none for a refused one")
          .hasSize(45)
          .doesNotHaveDuplicates()
          .allSatisfy(
              id -> assertThat(Integer.parseInt(id.substring("order-".length())) % 10).isNotZero());
      assertThat(strings(c, "SELECT id FROM outbox")).as("rows left in the outbox").isEmpty();
    }
  }

  private static List<String> strings(Connection c, String sql) throws SQLException {
    List<String> values = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        values.add(rs.getString(1));
      }
    }
    return values;
  }

  /** This module's classes and its runtime scope, as written by maven-dependency-plugin. */
  private static String applicationClasspath() throws IOException {
    Path file = Path.of("target", "application.classpath");
    assertThat(file).as("written by the build (maven-dependency-plugin)").exists();
    String dependencies = Files.readString(file, StandardCharsets.UTF_8).strip();
    return Path.of("target", "classes").toAbsolutePath()
        + java.io.File.pathSeparator
        + dependencies;
  }

  private static String javaCommand() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }
}
