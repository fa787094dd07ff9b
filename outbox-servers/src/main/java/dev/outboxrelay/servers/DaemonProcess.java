package dev.outboxrelay.servers;

import dev.outboxrelay.servers.internal.Processes;
import dev.outboxrelay.servers.internal.ServerDirs;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The relay daemon jar ({@code outbox-relay-daemon}) as a separate OS process, for tests that need
 * a relay they can SIGKILL, SIGSTOP or SIGTERM. The jar's path comes from the system property
 * {@code outbox.daemon.jar}; its output (stdout and stderr) goes to a log file under the servers
 * directory.
 */
public final class DaemonProcess implements AutoCloseable {
  private static final java.net.http.HttpClient HTTP = java.net.http.HttpClient.newHttpClient();
  public static final String JAR_PROPERTY = "outbox.daemon.jar";
  private static final Pattern READY = Pattern.compile("outbox-relay-daemon ready http=(\\S+)");

  private final Path jar;
  private final Path log;
  private final Process process;
  private String httpAddress;

  private DaemonProcess(Path jar, Path log, Process process) {
    this.jar = jar;
    this.log = log;
    this.process = process;
  }

  /** The daemon jar named by {@code -Doutbox.daemon.jar}, which must exist. */
  public static Path jar() {
    String p = System.getProperty(JAR_PROPERTY);
    if (p == null || !Files.isRegularFile(Paths.get(p))) {
      throw new ServerStartException(
          "The relay daemon jar is missing: system property "
              + JAR_PROPERTY
              + " = "
              + p
              + " (build it with mvn -pl outbox-relay-daemon -am package)");
    }
    return Paths.get(p);
  }

  /**
   * Starts {@code java -jar <daemon> run --config <config>} with extra environment variables and
   * waits for its ready line (at most 90 s).
   */
  public static DaemonProcess run(Path config, Map<String, String> env) {
    DaemonProcess d = start(List.of("run", "--config", config.toString()), env, "daemon");
    d.awaitReady(Duration.ofSeconds(90));
    return d;
  }

  /**
   * Starts {@code java -cp <daemon>:<plugins...> <Main-Class> run --config <config>}, the way the
   * daemon's README says to add a publisher jar, and waits for its ready line (at most 90 s).
   */
  public static DaemonProcess run(Path config, Map<String, String> env, List<Path> plugins) {
    DaemonProcess d = start(List.of("run", "--config", config.toString()), env, "daemon", plugins);
    d.awaitReady(Duration.ofSeconds(90));
    return d;
  }

  /** Starts the daemon with any arguments without waiting for anything. */
  public static DaemonProcess start(List<String> args, Map<String, String> env, String name) {
    return start(args, env, name, List.of());
  }

  private static DaemonProcess start(
      List<String> args, Map<String, String> env, String name, List<Path> plugins) {
    Path jar = jar();
    Path dir = ServerDirs.create(name);
    Path log = dir.resolve(name + ".log");
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.add("-XX:+UseSerialGC");
    try {
      if (plugins.isEmpty()) {
        cmd.addAll(List.of("-jar", jar.toString()));
      } else {
        List<String> path = new ArrayList<>(List.of(jar.toString()));
        plugins.forEach(p -> path.add(p.toString()));
        cmd.addAll(List.of("-cp", String.join(File.pathSeparator, path), mainClass(jar)));
      }
      cmd.addAll(args);
      Files.createDirectories(dir);
      ProcessBuilder pb =
          new ProcessBuilder(cmd)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
      pb.environment().putAll(env);
      return new DaemonProcess(jar, log, pb.start());
    } catch (IOException e) {
      throw new ServerStartException("Could not start the relay daemon: " + e.getMessage(), e);
    }
  }

  /** The jar's {@code Main-Class}: {@code -cp} needs it named. */
  private static String mainClass(Path jar) throws IOException {
    try (JarFile f = new JarFile(jar.toFile())) {
      return f.getManifest().getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
    }
  }

  /**
   * Runs a daemon command to completion (at most {@code timeout}) and returns its exit code and
   * output.
   */
  public static Result exec(List<String> args, Map<String, String> env, Duration timeout) {
    return exec(args, env, List.of(), timeout);
  }

  /**
   * Runs a daemon command with publisher jars on the class path ({@code java -cp
   * <daemon>:<plugins...> <Main-Class>}) to completion (at most {@code timeout}).
   */
  public static Result exec(
      List<String> args, Map<String, String> env, List<Path> plugins, Duration timeout) {
    DaemonProcess d = start(args, env, "daemon-cli", plugins);
    try {
      if (!d.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        d.process.destroyForcibly();
        throw new ServerStartException(
            "daemon " + args + " did not finish in " + timeout + ": " + d.output());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      d.process.destroyForcibly();
      throw new ServerStartException("Interrupted while running daemon " + args, e);
    }
    return new Result(d.process.exitValue(), d.output());
  }

  /** A finished command: exit code and everything it printed. */
  public record Result(int exitCode, String output) {}

  private void awaitReady(Duration timeout) {
    Processes.awaitReady(
        "relay daemon",
        process,
        log,
        timeout,
        () -> {
          Matcher m = READY.matcher(output());
          if (m.find()) {
            httpAddress = m.group(1);
            return true;
          }
          return false;
        });
  }

  /** {@code host:port} of the health and metrics endpoints. */
  public String httpAddress() {
    return httpAddress;
  }

  /**
   * A GET on the daemon's HTTP endpoints ({@code /health/ready}, {@code /metrics}, ...): the status
   * code, a space, and the body.
   */
  public String get(String path) throws IOException, InterruptedException {
    java.net.http.HttpResponse<String> r =
        HTTP.send(
            java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://" + httpAddress + path))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    return r.statusCode() + " " + r.body();
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Everything the process printed so far. */
  public String output() {
    try {
      return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "(unreadable " + log + ": " + e + ")";
    }
  }

  public Path log() {
    return log;
  }

  /** SIGTERM and wait for the graceful exit (at most {@code timeout}); returns the exit code. */
  public int terminate(Duration timeout) {
    process.destroy();
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(
            "The relay daemon did not stop within "
                + timeout
                + " of SIGTERM: "
                + Processes.tail(log));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while stopping the relay daemon", e);
    }
    return process.exitValue();
  }

  /** SIGKILL: the process dies mid-whatever, as in a crash. */
  public void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** SIGSTOP: the process freezes (a long GC pause, a stalled VM). */
  public void pause() {
    signal("STOP");
  }

  /** SIGCONT after {@link #pause()}. */
  public void resume() {
    signal("CONT");
  }

  private void signal(String name) {
    Processes.run(
        List.of("kill", "-" + name, String.valueOf(process.pid())),
        log.resolveSibling("signals.log"),
        Duration.ofSeconds(10));
  }

  @Override
  public void close() {
    Processes.stop(process, Duration.ofSeconds(20));
  }

  @Override
  public String toString() {
    return "relay daemon pid " + process.pid() + " (" + jar.getFileName() + ", log " + log + ")";
  }
}
