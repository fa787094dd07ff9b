package dev.outboxrelay.servers.internal;

import dev.outboxrelay.servers.ServerStartException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Starting, waiting for and stopping server processes, with their output in a log file. */
public final class Processes {
  private Processes() {}

  /** Starts a long-running process with stdout and stderr appended to {@code log}. */
  public static Process start(List<String> command, Path log) {
    try {
      Files.createDirectories(log.getParent());
      return new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .start();
    } catch (IOException e) {
      throw new ServerStartException("Could not run " + command.get(0) + ": " + e.getMessage(), e);
    }
  }

  /** Runs a command to completion; fails with its output when it exits non-zero or hangs. */
  public static void run(List<String> command, Path log, Duration timeout) {
    Process p = start(command, log);
    try {
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new ServerStartException(
            String.join(" ", command) + " did not finish in " + timeout + "; log: " + tail(log));
      }
      if (p.exitValue() != 0) {
        throw new ServerStartException(
            String.join(" ", command) + " exited with " + p.exitValue() + ": " + tail(log));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      throw new ServerStartException("Interrupted while running " + command.get(0), e);
    }
  }

  /**
   * Waits until {@code ready} answers true; fails if the process dies or time runs out.
   *
   * @param what the server's name for the error message
   */
  public static void awaitReady(
      String what, Process process, Path log, Duration timeout, BooleanSupplier ready) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!ready.getAsBoolean()) {
      if (!process.isAlive()) {
        throw new ServerStartException(
            what + " exited with " + process.exitValue() + " while starting: " + tail(log));
      }
      if (System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new ServerStartException(what + " not ready after " + timeout + ": " + tail(log));
      }
      pause(100);
    }
  }

  /** Asks the process to stop (SIGTERM), then kills it after the grace period. */
  public static void stop(Process process, Duration grace) {
    if (process == null || !process.isAlive()) {
      return;
    }
    process.descendants().forEach(ProcessHandle::destroy);
    process.destroy();
    try {
      if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  /** The last lines of a log, for error messages. */
  public static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return "("
          + log
          + ")\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 25), lines.size()));
    } catch (IOException e) {
      return "(no log at " + log + ")";
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServerStartException("Interrupted while waiting for a server", e);
    }
  }
}
