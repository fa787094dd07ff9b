package dev.outboxrelay.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./run-demo} as the README says to run it, on the checkout this build just packaged: it
 * runs the jar without building, the console's last line is the summary's {@code OK}, no WARN or
 * ERROR line reaches the console, and the servers' data is gone when the script has exited, after a
 * normal end and after Ctrl-C.
 */
class RunDemoIT {
  private static final Duration DEMO = Duration.ofMinutes(4);

  /** A logback line at WARN or ERROR (logback-demo.xml's pattern), or java.util.logging's. */
  private static final Pattern WARNING =
      Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d\\.\\d{3} (WARN|ERROR) |WARNING: |SEVERE: )");

  /** The database's and the broker's address in the relay config the demo prints. */
  private static final Pattern SERVER_PORT =
      Pattern.compile("(?:jdbc:postgresql://|bootstrap\\.servers: ')127\\.0\\.0\\.1:(\\d+)");

  private static final String OK =
      "OK: every committed order shipped exactly once, no rolled-back order shipped.";

  @TempDir Path work;

  @Test
  void thePollingRelayOnPostgresEndsWithOk() {
    RunDemoScript.Result demo = RunDemoScript.run(work, DEMO, "--orders", "600", "--rate", "300");

    assertQuietRunEndingWithOk(demo);
    assertThat(demo.console())
        .contains("Relay running; health and metrics on http://127.0.0.1:")
        .contains("replayed 100 already-published messages")
        .contains("duplicates suppressed     100")
        .contains("outbox rows pending       0")
        // Masked by key; the password ('outbox') is not searched for in other text.
        .contains("password: ******")
        .doesNotContain("dev.******relay");
  }

  /**
   * The README's second command: the CDC relay marks what it published behind its stream, so
   * "pending" is counted after the relay stopped (its stop writes the last published rows).
   */
  @Test
  void theCdcRelayOnMariaDbEndsWithOk() {
    RunDemoScript.Result demo =
        RunDemoScript.run(work, DEMO, "--database", "mariadb", "--mode", "cdc", "--orders", "600");

    assertQuietRunEndingWithOk(demo);
    assertThat(demo.console())
        .contains("(no replay in cdc mode")
        .contains("outbox rows pending       0")
        .contains("after the first 2 s");
  }

  /** Ctrl-C reaches the script; the demo's servers stop and their data goes. */
  @Test
  void anInterruptedDemoLeavesNoServerOrData() throws Exception {
    RunDemoScript demo = RunDemoScript.start(work, "--orders", "100000");
    demo.awaitConsole("Relay running", DEMO);
    List<ProcessHandle> started = demo.process().descendants().toList();

    new ProcessBuilder("kill", "-INT", String.valueOf(demo.process().pid())).start().waitFor();
    RunDemoScript.Result interrupted = demo.await(Duration.ofMinutes(1));

    assertThat(interrupted.exitCode()).as(interrupted.console()).isNotZero();
    assertThat(interrupted.mavenRan()).isFalse();
    assertThat(started).as("the demo JVM and its servers").isNotEmpty();
    assertThat(started.stream().filter(ProcessHandle::isAlive).toList())
        .as(interrupted.console())
        .isEmpty();
    assertThat(interrupted.serverData()).as(interrupted.console()).doesNotExist();
    // PostgreSQL runs detached from the script (pg_ctl starts it in a session of its own): its
    // port, and the broker's, from the relay config on the console, take no connection any more.
    Set<Integer> ports = new TreeSet<>();
    Matcher port = SERVER_PORT.matcher(interrupted.console());
    while (port.find()) {
      ports.add(Integer.parseInt(port.group(1)));
    }
    assertThat(ports).as("database and broker ports in:%n%s", interrupted.console()).hasSize(2);
    assertThat(ports).as("still listening after the demo exited").noneMatch(RunDemoIT::accepts);
    // One line says what happens; the errors of the servers going away stay in the log file.
    assertThat(interrupted.lines())
        .as(interrupted.console())
        .endsWith("Interrupted: stopping the servers.")
        .noneMatch(l -> WARNING.matcher(l).find());
  }

  private static boolean accepts(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      return true;
    } catch (IOException refused) {
      return false;
    }
  }

  private static void assertQuietRunEndingWithOk(RunDemoScript.Result demo) {
    assertThat(demo.exitCode()).as(demo.console()).isZero();
    assertThat(demo.mavenRan()).as("the jar this build packaged is up to date").isFalse();
    List<String> lines = demo.lines();
    assertThat(lines.get(lines.size() - 1)).as(demo.console()).isEqualTo(OK);
    assertThat(lines).as(demo.console()).noneMatch(l -> WARNING.matcher(l).find());
    assertThat(demo.serverData()).as(demo.console()).doesNotExist();
  }
}
