package dev.outboxrelay.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code ./run-demo} checks its arguments itself, before any build: {@code --help} and a refused
 * argument answer at once, without Maven or a JVM, and the options it lists are DemoCommand's, with
 * the same labels, descriptions and defaults. {@code --rebuild} builds whatever the jar's age.
 */
class RunDemoScriptTest {
  /**
   * The issue asks for an answer in under 2 s. The script answers from bash alone in about 0.1 s
   * here; the bound leaves that twenty-fold room for a CI machine whose two cores are busy.
   */
  private static final Duration ANSWER = Duration.ofSeconds(2);

  private static final Pattern OPTION_LINE = Pattern.compile("^  (--[a-z]+) (\\S+) +(.+)$");

  @TempDir Path work;

  @Test
  void helpListsDemoCommandsOptionsWithoutBuilding() {
    RunDemoScript.Result help = RunDemoScript.run(work, Duration.ofSeconds(30), "--help");

    assertThat(help.exitCode()).as(help.console()).isZero();
    assertThat(help.mavenRan()).isFalse();
    assertThat(help.took()).isLessThan(ANSWER);
    assertThat(help.console()).startsWith("Usage: ./run-demo [");
    CommandSpec demo = new CommandLine(new DemoCommand()).getCommandSpec();
    assertThat(help.console().replaceAll("\\s+", " "))
        .contains(String.join(" ", demo.usageMessage().description()))
        .contains("--rebuild");
    assertThat(scriptOptions(help.console())).isEqualTo(demoOptions(demo));
  }

  @Test
  void aMistypedOptionIsNamedWithTheOneMeantWithoutBuilding() {
    RunDemoScript.Result typo = RunDemoScript.run(work, Duration.ofSeconds(30), "--ordrs", "5");

    assertThat(typo.exitCode()).as(typo.console()).isEqualTo(2);
    assertThat(typo.mavenRan()).isFalse();
    assertThat(typo.took()).isLessThan(ANSWER);
    assertThat(typo.console())
        .contains("run-demo: unknown option --ordrs (did you mean --orders?)")
        .contains("./run-demo --help");
  }

  @Test
  void aRefusedValueIsNamedWithoutBuilding() {
    for (String[] args :
        new String[][] {
          {"--database", "mysql"}, {"--mode=kafka"}, {"--orders", "many"}, {"--rate"}
        }) {
      RunDemoScript.Result refused = RunDemoScript.run(work, Duration.ofSeconds(30), args);
      assertThat(refused.exitCode()).as(refused.console()).isEqualTo(2);
      assertThat(refused.mavenRan()).isFalse();
      assertThat(refused.console()).startsWith("run-demo: " + args[0].split("=")[0] + " ");
    }
  }

  /**
   * {@code --rebuild} builds even when the jar is up to date: the stand-in mvn runs (and fails, so
   * the script stops there with the build's exit code).
   */
  @Test
  void rebuildRunsMaven() {
    RunDemoScript.Result rebuild =
        RunDemoScript.run(work, Duration.ofSeconds(60), "--rebuild", "--orders", "5");

    assertThat(rebuild.mavenRan()).as(rebuild.console()).isTrue();
    assertThat(rebuild.exitCode()).as(rebuild.console()).isEqualTo(1);
    assertThat(rebuild.console()).contains("Build failed").doesNotContain("Server data:");
  }

  /** The script's option lines: name to "LABEL description". */
  private static Map<String, String> scriptOptions(String help) {
    Map<String, String> options = new LinkedHashMap<>();
    for (String line : help.lines().toList()) {
      Matcher m = OPTION_LINE.matcher(line);
      if (m.matches() && !m.group(1).equals("--rebuild")) {
        options.put(m.group(1), m.group(2) + " " + m.group(3));
      }
    }
    return options;
  }

  /** DemoCommand's options, but help and version, as the script lists them. */
  private static Map<String, String> demoOptions(CommandSpec demo) {
    Map<String, String> options = new LinkedHashMap<>();
    for (OptionSpec o : demo.options()) {
      if (!o.usageHelp() && !o.versionHelp()) {
        options.put(
            o.longestName(),
            o.paramLabel()
                + " "
                + String.join(" ", o.description()).replace("${DEFAULT-VALUE}", o.defaultValue()));
      }
    }
    return options;
  }
}
