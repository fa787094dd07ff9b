package dev.outboxrelay.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;

/**
 * {@code ./run-demo} as a process, the way a user runs it, with Maven replaced: the {@code mvn} on
 * its PATH only leaves a mark and fails, so a test sees whether the script tried to build. The
 * script's path is {@code -Doutbox.demo.script}; stdout and stderr are merged, as on a console.
 */
final class RunDemoScript {
  private static final Pattern SERVER_DATA = Pattern.compile("Server data: (\\S+) \\(removed");

  private final Path work;
  private final Process process;
  private final Path console;
  private final long startedNanos;

  private RunDemoScript(Path work, Process process, Path console, long startedNanos) {
    this.work = work;
    this.process = process;
    this.console = console;
    this.startedNanos = startedNanos;
  }

  /** Starts {@code run-demo args}, with {@code work} for the stand-in mvn and the console. */
  static RunDemoScript start(Path work, String... args) {
    try {
      Path bin = Files.createDirectories(work.resolve("bin"));
      Path mvn = bin.resolve("mvn");
      Files.writeString(
          mvn,
          "#!/bin/sh\ntouch \"$(dirname \"$0\")/../mvn-ran\"\nexit 1\n",
          StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
      Path console = Files.createTempFile(work, "console", ".txt");
      // As from a terminal, SIGINT at its default whatever this JVM inherited: a job put in the
      // background by a shell without job control starts with SIGINT ignored, and bash cannot
      // trap a signal that was ignored when it started (the script's Ctrl-C handling).
      List<String> command =
          new ArrayList<>(List.of("env", "--default-signal=INT", "bash", script().toString()));
      command.addAll(List.of(args));
      ProcessBuilder pb =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(console.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
      pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
      long started = System.nanoTime();
      return new RunDemoScript(work, pb.start(), console, started);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code run-demo args} to its end (at most {@code timeout}). */
  static Result run(Path work, Duration timeout, String... args) {
    return start(work, args).await(timeout);
  }

  private static Path script() {
    String p = System.getProperty("outbox.demo.script");
    if (p == null || !Files.isRegularFile(Paths.get(p))) {
      throw new IllegalStateException("-Doutbox.demo.script names no file: " + p);
    }
    return Paths.get(p).toAbsolutePath().normalize();
  }

  /** The script's process (bash). */
  Process process() {
    return process;
  }

  /** Everything printed so far. */
  String console() {
    try (InputStream in = Files.newInputStream(console)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Waits until the console holds {@code text}; fails if the script ends first or time runs out.
   */
  void awaitConsole(String text, Duration timeout) {
    try {
      Awaitility.await()
          .atMost(timeout)
          .failFast("the script ended", () -> !process.isAlive() && !console().contains(text))
          .until(() -> console().contains(text));
    } catch (ConditionTimeoutException | TerminalFailureException e) {
      throw new AssertionError("No '" + text + "' on the console:\n" + console(), e);
    }
  }

  /**
   * Waits for the script's end; past {@code timeout} it is stopped (SIGTERM, which it passes to the
   * demo, then SIGKILL to what is left) and the test fails with the console.
   */
  Result await(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          children.forEach(ProcessHandle::destroyForcibly);
          process.destroyForcibly();
        }
        throw new AssertionError("run-demo did not end within " + timeout + ":\n" + console());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new AssertionError("Interrupted while run-demo ran", e);
    }
    return new Result(
        process.exitValue(),
        console(),
        Duration.ofNanos(System.nanoTime() - startedNanos),
        Files.exists(work.resolve("mvn-ran")));
  }

  /**
   * A finished run: exit code, console, how long it took, and whether it ran Maven.
   *
   * @param mavenRan whether the script called {@code mvn}
   */
  record Result(int exitCode, String console, Duration took, boolean mavenRan) {
    /** The console's lines, without blank ones. */
    List<String> lines() {
      return console.lines().filter(l -> !l.isBlank()).toList();
    }

    /** The directory the script named for the servers' data. */
    Path serverData() {
      Matcher m = SERVER_DATA.matcher(console);
      if (!m.find()) {
        throw new AssertionError("No 'Server data:' line on the console:\n" + console);
      }
      return Paths.get(m.group(1));
    }
  }
}
