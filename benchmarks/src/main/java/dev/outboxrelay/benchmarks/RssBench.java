package dev.outboxrelay.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Peak resident memory (VmHWM) of a relay process draining a backlog to Kafka: the daemon jar when
 * it has been built ({@code outbox-relay-daemon/target}), otherwise a JVM running {@link
 * RelayProcess}. Both run with {@link #HEAP}.
 */
final class RssBench {
  static final String HEAP = "-Xmx256m";
  private final Kafka kafka;
  private final int payloadBytes;
  String what;
  private String whyNotDaemon;

  RssBench(Kafka kafka, int payloadBytes) {
    this.kafka = kafka;
    this.payloadBytes = payloadBytes;
  }

  /**
   * MiB of VmHWM after draining {@code n} rows: the daemon jar if it starts, else a JVM running
   * {@link RelayProcess} ({@link #what} says which, and why).
   */
  double run(Db db, int n, Path daemonJar) throws Exception {
    if (daemonJar != null && Files.exists(daemonJar)) {
      Path dir = Files.createTempDirectory("outbox-bench-daemon");
      String prefix = kafka.newTopicPrefix("rss-daemon-" + db.kind);
      List<String> cmd = java();
      cmd.addAll(List.of("-jar", daemonJar.toString(), "run", "--config", yaml(db, prefix, dir)));
      try {
        double mib = measure(db, n, prefix, cmd, "outbox-relay-daemon ready", dir);
        what = "outbox-relay-daemon jar (" + HEAP + ")";
        return mib;
      } catch (Exception e) {
        String log = Files.readAllLines(dir.resolve("relay.log")).stream().findFirst().orElse("");
        whyNotDaemon = "daemon jar did not start (" + e.getMessage() + "; " + log + ")";
      }
    } else {
      whyNotDaemon = "daemon jar not built";
    }
    String prefix = kafka.newTopicPrefix("rss-" + db.kind);
    List<String> cmd = java();
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path")));
    cmd.add(RelayProcess.class.getName());
    cmd.addAll(List.of(db.url(), db.server.user(), db.server.password(), kafka.bootstrap, prefix));
    what = "a JVM running PollingRelay alone (" + whyNotDaemon + "; " + HEAP + ")";
    return measure(db, n, prefix, cmd, "ready", Files.createTempDirectory("outbox-bench-rss"));
  }

  private static List<String> java() {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add(HEAP);
    return cmd;
  }

  private double measure(Db db, int n, String prefix, List<String> cmd, String ready, Path dir)
      throws Exception {
    db.execute("DELETE FROM outbox");
    Backlog.fill(db.ds, n, payloadBytes, 1000);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      awaitLine(p, ready, dir.resolve("relay.log"));
      kafka.awaitCount(prefix + "order", n, Duration.ofMinutes(15));
      return vmHwmKb(p.pid()) / 1024.0;
    } finally {
      p.getOutputStream().close();
      p.destroy();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  private String yaml(Db db, String prefix, Path dir) throws IOException {
    StringBuilder y = new StringBuilder();
    y.append("http:\n  host: 127.0.0.1\n  port: 0\nrelays:\n  - name: bench\n    mode: polling\n");
    y.append("    database:\n      url: ").append(db.url()).append('\n');
    y.append("      username: ").append(db.server.user()).append('\n');
    y.append("      password: ").append(db.server.password()).append('\n');
    y.append("    publisher:\n      type: kafka\n      settings:\n");
    y.append("        topic-template: \"").append(prefix).append("${aggregatetype}\"\n");
    for (Map.Entry<String, String> e : kafka.producerSettings().entrySet()) {
      y.append("        ").append(e.getKey()).append(": \"").append(e.getValue()).append("\"\n");
    }
    Path file = dir.resolve("relay.yaml");
    Files.writeString(file, y.toString());
    return file.toString();
  }

  /** Waits for the ready line, copying the process output to a log file from a daemon thread. */
  private static void awaitLine(Process p, String ready, Path log) throws Exception {
    java.util.concurrent.CompletableFuture<Void> seen =
        new java.util.concurrent.CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try (BufferedReader r =
                      new BufferedReader(
                          new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                  var w = Files.newBufferedWriter(log)) {
                String line;
                while ((line = r.readLine()) != null) {
                  w.write(line);
                  w.newLine();
                  w.flush();
                  if (line.contains(ready)) {
                    seen.complete(null);
                  }
                }
              } catch (IOException e) {
                seen.completeExceptionally(e);
              }
              seen.completeExceptionally(new IllegalStateException("relay process exited; " + log));
            },
            "rss-output");
    t.setDaemon(true);
    t.start();
    seen.get(120, TimeUnit.SECONDS);
  }

  static long vmHwmKb(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new IOException("no VmHWM for " + pid);
  }
}
