package dev.outboxrelay.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.daemon.OutboxRelayDaemon;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The demo jar's command line is the daemon's plus {@code demo}, with the daemon's exit codes. */
class DemoMainTest {

  @Test
  void addsDemoToTheDaemonsCommands() {
    assertThat(DemoMain.commandLine().getSubcommands().keySet())
        .containsAll(OutboxRelayDaemon.commandLine().getSubcommands().keySet())
        .contains("demo");
    assertThat(OutboxRelayDaemon.commandLine().getSubcommands()).doesNotContainKey("demo");
  }

  @Test
  void aRefusedDemoArgumentExitsWithTheConfigCode() {
    StringWriter err = new StringWriter();
    int code =
        DemoMain.commandLine()
            .setErr(new PrintWriter(err, true))
            .execute("demo", "--database", "mysql");
    assertThat(code).isEqualTo(OutboxRelayDaemon.EXIT_CONFIG);
    assertThat(err.toString()).contains("Invalid configuration: --database").contains("mysql");
  }
}
