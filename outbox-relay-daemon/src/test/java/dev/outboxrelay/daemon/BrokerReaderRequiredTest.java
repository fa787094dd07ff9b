package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.daemon.config.ConfigLoader;
import dev.outboxrelay.daemon.config.DaemonConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code verify} and the reconciliation loop read the broker through the reader the publisher's
 * factory offers; a publisher that offers none ({@link WriteOnlyPublisherFactory}) is refused at
 * start-up, naming the key and the value, before any database is asked (this one is not up).
 */
class BrokerReaderRequiredTest {
  private static final String REFUSED =
      "relays[0].publisher.type must name a publisher with a broker reader for %s"
          + " (PublisherFactory.brokerCheck); that publisher offers no broker reader,"
          + " but was 'write-only'";

  @TempDir Path dir;

  @Test
  void verifyWithAPublisherWithoutABrokerReaderExitsAsAConfigError() throws Exception {
    Path config = dir.resolve("relay.yaml");
    Files.writeString(config, yaml(false));
    StringWriter err = new StringWriter();
    CommandLine cli = OutboxRelayDaemon.commandLine();
    cli.setErr(new PrintWriter(err));

    int exit =
        cli.execute("verify", "--config", config.toString(), "--since", "2024-01-01T00:00:00Z");

    assertThat(exit).as(err.toString()).isEqualTo(OutboxRelayDaemon.EXIT_CONFIG);
    assertThat(err.toString())
        .contains("Invalid configuration: " + REFUSED.formatted("verify"))
        .doesNotContain("database");
  }

  @Test
  void theReconcileLoopWithAPublisherWithoutABrokerReaderFailsTheStartBeforeAnyWait() {
    DaemonConfig config = ConfigLoader.parse(yaml(true), Map.of());

    assertThatThrownBy(() -> Daemon.start(config))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessage(REFUSED.formatted("reconcile.enabled"));
  }

  @Test
  void withoutReconcileAPublisherWithoutABrokerReaderPassesTheChecksBeforeAnyWait() {
    DaemonConfig config = ConfigLoader.parse(yaml(false), Map.of());

    assertThatCode(() -> PublisherCheck.beforeAnyWait(config.relays().get(0), 0))
        .doesNotThrowAnyException();
    assertThat(Wiring.offeredBrokerCheck(config.relays().get(0), 0)).isEmpty();
  }

  private static String yaml(boolean reconcile) {
    return String.join(
        "\n",
        "relays:",
        "  - name: orders",
        "    database: {url: 'jdbc:postgresql://127.0.0.1:1/app', username: app}",
        "    retention: keep:1h",
        "    reconcile: {enabled: " + reconcile + "}",
        "    publisher: {type: " + WriteOnlyPublisherFactory.TYPE + "}",
        "");
  }
}
