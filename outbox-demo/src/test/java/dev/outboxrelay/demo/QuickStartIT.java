package dev.outboxrelay.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.quickstart.QuickStart;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.KafkaExtension;
import dev.outboxrelay.testing.KafkaTopicReader;
import dev.outboxrelay.testing.Readme;
import dev.outboxrelay.testing.ReceivedMessage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The root README's plain JDBC example is {@link QuickStart}, whole, and it runs: on a fresh
 * PostgreSQL database it creates the tables, commits an order with its event, and its embedded
 * relay puts the event on {@code outbox.event.order}, keyed by the order's id.
 */
class QuickStartIT {
  @RegisterExtension static final DatabaseExtension PG = DatabaseExtension.postgres();
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  private static final Pattern SENT =
      Pattern.compile("OrderPlaced (\\S+) sent to outbox.event.order");

  @Test
  void theRootReadmesExampleIsQuickStartWhole() throws Exception {
    assertThat(Readme.codeBlock(Path.of("../README.md"), "## One example", "java"))
        .isEqualTo(
            Files.readString(Path.of("src/main/java/com/example/quickstart/QuickStart.java")));
  }

  @Test
  void itCommitsAnOrderAndItsEmbeddedRelaySendsTheEvent() throws Exception {
    DatabaseServer db = PG.server();
    String database = db.createDatabase();
    String output = runMain(db.jdbcUrl(database), db.user(), db.password());
    Matcher sent = SENT.matcher(output);
    assertThat(sent.find()).as("the line QuickStart prints: " + output).isTrue();
    try (KafkaTopicReader topic = new KafkaTopicReader(KAFKA.server().bootstrapServers())) {
      assertThat(topic.readAll("outbox.event.order"))
          .extracting(ReceivedMessage::key)
          .contains(sent.group(1));
    }
  }

  private static String runMain(String url, String user, String password) throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      QuickStart.main(new String[] {url, user, password, KAFKA.server().bootstrapServers()});
    } finally {
      System.setOut(original);
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
