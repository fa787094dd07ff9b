package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.servers.DaemonProcess;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A publisher setting that is wrong is reported at once, not after the database wait: the jar as a
 * process, its database on a port where nothing listens, {@code startup-timeout} ten minutes. Only
 * a check made before any wait exits 2 within the test's bound; no server is started at all.
 */
class DaemonSettingsBeforeWaitIT {
  /** Far below the ten-minute wait, far above a JVM start on a loaded 2-core machine. */
  private static final Duration QUICKLY = Duration.ofSeconds(45);

  @TempDir Path dir;

  @Test
  void aBadKafkaSettingExits2BeforeTheDatabaseIsWaitedFor() throws Exception {
    DaemonProcess.Result r = run("kafka", "bootstrap.servers: 127.0.0.1:1", "linger.ms: soon");
    assertThat(r.exitCode()).as(r.output()).isEqualTo(OutboxRelayDaemon.EXIT_CONFIG);
    assertThat(r.output())
        .contains(
            "Invalid configuration: relays[0].publisher.settings.linger.ms is refused by the Kafka"
                + " producer: Not a number of type LONG, but was 'soon'")
        .doesNotContain("database not reachable yet");

    DaemonProcess.Result acks = run("kafka", "bootstrap.servers: 127.0.0.1:1", "acks: maybe");
    assertThat(acks.exitCode()).as(acks.output()).isEqualTo(OutboxRelayDaemon.EXIT_CONFIG);
    assertThat(acks.output())
        .contains("Invalid configuration: relays[0].publisher.settings.acks must be all")
        .contains("but was 'maybe'")
        .doesNotContain("database not reachable yet");
  }

  @Test
  void aRefusedRocketMqSettingExits2BeforeTheDatabaseIsWaitedForWithTheSecretMasked()
      throws Exception {
    DaemonProcess.Result r = run("rocketmq", "namesrvAddr: 127.0.0.1:1", "secretKey: Canary-42x");
    assertThat(r.exitCode()).as(r.output()).isEqualTo(OutboxRelayDaemon.EXIT_CONFIG);
    assertThat(r.output())
        .contains(
            "Invalid configuration: relays[0].publisher.settings.accessKey must be set with the"
                + " other ACL credential")
        .doesNotContain("Canary-42x")
        .doesNotContain("database not reachable yet");
  }

  private DaemonProcess.Result run(String type, String... settings) throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort(); // free again once closed: connections to it are refused
    }
    Path file = Files.createTempFile(dir, "relay", ".yaml");
    StringBuilder yaml =
        new StringBuilder(
            String.join(
                "\n",
                "http:",
                "  host: 127.0.0.1",
                "  port: 0",
                "startup-timeout: 10m",
                "relays:",
                "  - name: orders",
                "    database:",
                "      url: jdbc:postgresql://127.0.0.1:" + closed + "/app",
                "      username: app",
                "    publisher:",
                "      type: " + type,
                "      settings:",
                ""));
    for (String s : settings) {
      yaml.append("        ").append(s).append('\n');
    }
    Files.writeString(file, yaml);
    long started = System.nanoTime();
    DaemonProcess.Result r =
        DaemonProcess.exec(List.of("run", "--config", file.toString()), Map.of(), QUICKLY);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(QUICKLY);
    return r;
  }
}
