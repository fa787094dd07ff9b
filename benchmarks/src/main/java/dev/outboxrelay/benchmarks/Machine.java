package dev.outboxrelay.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** Facts about the machine for the report: CPUs, memory, Java, load, commit. */
final class Machine {
  private Machine() {}

  static String describe() {
    return Runtime.getRuntime().availableProcessors()
        + " CPUs, Java "
        + System.getProperty("java.version")
        + ", "
        + System.getProperty("os.name")
        + " "
        + System.getProperty("os.version")
        + ", benchmark JVM max heap "
        + Runtime.getRuntime().maxMemory() / (1024 * 1024)
        + " MiB";
  }

  static String uptime() {
    return run("uptime");
  }

  static String gitCommit() {
    return run("git", "rev-parse", "--short", "HEAD");
  }

  private static String run(String... cmd) {
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      p.waitFor(10, TimeUnit.SECONDS);
      return s;
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }
}
