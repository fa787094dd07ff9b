package dev.outboxrelay.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.daemon.OutboxRelayDaemon;
import dev.outboxrelay.servers.DaemonProcess;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The demo jar's {@code demo} command as a separate process, for those who run the jar without
 * {@code ./run-demo}: a refused argument costs nothing (exit 2 before any server starts), and
 * {@code --help} lists the options. RunDemoIT runs the whole pipeline through the script.
 */
class DemoProcessIT {
  private static final Duration CLI = Duration.ofSeconds(90);

  @Test
  void aRefusedArgumentExitsTwoBeforeAnyServerStarts() {
    for (List<String> demo :
        List.of(List.of("demo", "--database", "mysql"), List.of("demo", "--mode", "kafka"))) {
      DaemonProcess.Result r = DaemonProcess.exec(demo, Map.of(), CLI);
      assertThat(r.exitCode()).as(r.output()).isEqualTo(OutboxRelayDaemon.EXIT_CONFIG);
      assertThat(r.output()).contains("Invalid configuration: --").doesNotContain("Starting");
    }
  }

  @Test
  void helpListsTheDemoOptions() {
    DaemonProcess.Result r = DaemonProcess.exec(List.of("demo", "--help"), Map.of(), CLI);
    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).contains("--orders", "--rate", "--database", "--mode");
  }
}
