package dev.outboxrelay.daemon.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prometheus' own checks of deploy/prometheus: {@code promtool check rules}, {@code promtool test
 * rules} (the unit tests in outbox-relay-rules.test.yml) and {@code promtool check config} (on a
 * copy of prometheus.yml whose rule file points here). An IT because it needs promtool, from
 * Debian's {@code prometheus} package ({@code .ci/install-servers} installs it); without it the
 * test fails and says so.
 */
class AlertRulesPromtoolIT {
  private static final Path DIR = MonitoringFiles.ROOT.resolve("deploy/prometheus");

  @TempDir Path tmp;

  @Test
  void promtoolAcceptsTheRulesAndTheirUnitTestsPass() throws Exception {
    assertThat(promtool("check", "rules", "outbox-relay-rules.yml")).contains("SUCCESS: 8 rules");
    assertThat(promtool("test", "rules", "outbox-relay-rules.test.yml")).contains("SUCCESS");
  }

  @Test
  void promtoolAcceptsTheComposeStacksPrometheusConfig() throws Exception {
    String config = Files.readString(DIR.resolve("prometheus.yml"));
    assertThat(config).contains("/etc/prometheus/outbox-relay-rules.yml");
    Path copy = tmp.resolve("prometheus.yml");
    Files.writeString(
        copy,
        config.replace(
            "/etc/prometheus/outbox-relay-rules.yml",
            DIR.resolve("outbox-relay-rules.yml").toString()));
    assertThat(promtool("check", "config", copy.toString())).contains("SUCCESS");
  }

  private static String promtool(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(find().toString()));
    command.addAll(List.of(args));
    Process p =
        new ProcessBuilder(command).directory(DIR.toFile()).redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("promtool finished").isTrue();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.exitValue()).as("%s:%n%s", command, out).isZero();
    return out;
  }

  private static Path find() {
    return Stream.concat(
            Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)),
            Stream.of("/usr/bin", "/usr/local/bin"))
        .filter(d -> !d.isEmpty())
        .map(d -> Path.of(d, "promtool"))
        .filter(Files::isExecutable)
        .findFirst()
        .orElseThrow(
            () ->
                new AssertionError(
                    "promtool not found on the PATH or in /usr/bin: install Debian's prometheus"
                        + " package (.ci/install-servers does, without starting the server)"));
  }
}
