package dev.outboxrelay.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.daemon.OutboxRelayDaemon;
import dev.outboxrelay.servers.DaemonProcess;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The demo jar as a separate process, as {@code ./run-demo} runs it: the whole pipeline on private
 * servers ends with {@code OK}, and a refused argument costs nothing (exit 2 before any server
 * starts).
 */
class DemoProcessIT {
  private static final Duration CLI = Duration.ofSeconds(90);

  @Test
  void theDemoRunsTheWholePipelineEndToEnd() {
    DaemonProcess.Result demo =
        DaemonProcess.exec(
            List.of("demo", "--orders", "600", "--rate", "300"), Map.of(), Duration.ofMinutes(4));
    assertThat(demo.output())
        .contains("Relay running; health and metrics on http://127.0.0.1:")
        .contains("replayed 100 already-published messages")
        .contains("duplicates suppressed     100")
        .contains("outbox rows pending       0")
        .contains("OK: every committed order shipped exactly once, no rolled-back order shipped.")
        // Masked by key; the password ('outbox') is not searched for in other text.
        .contains("password: ******")
        .doesNotContain("dev.******relay");
    assertThat(demo.exitCode()).as(demo.output()).isZero();
  }

  /**
   * The README's second command: the CDC relay marks what it published behind its stream, so
   * "pending" is counted after the relay stopped (its stop writes the last published rows).
   */
  @Test
  void theDemoRunsWithTheCdcRelayOnMariaDb() {
    DaemonProcess.Result demo =
        DaemonProcess.exec(
            List.of("demo", "--database", "mariadb", "--mode", "cdc", "--orders", "600"),
            Map.of(),
            Duration.ofMinutes(4));
    assertThat(demo.output())
        .contains("(no replay in cdc mode")
        .contains("outbox rows pending       0")
        .contains("after the first 2 s")
        .contains("OK: every committed order shipped exactly once, no rolled-back order shipped.");
    assertThat(demo.exitCode()).as(demo.output()).isZero();
  }

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
