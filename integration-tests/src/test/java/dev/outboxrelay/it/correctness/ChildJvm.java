package dev.outboxrelay.it.correctness;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A JVM the driver started (a relay or a consumer), with stdout and stderr in files. Faults are
 * real signals to its pid: {@code kill -KILL}, {@code -STOP}, {@code -CONT}, {@code -TERM}.
 */
final class ChildJvm implements AutoCloseable {
  private static final AtomicInteger LAUNCHES = new AtomicInteger();
  private final String name;
  private final Process process;
  private final Path out;
  private final Path err;

  private ChildJvm(String name, Process process, Path out, Path err) {
    this.name = name;
    this.process = process;
    this.out = out;
    this.err = err;
  }

  /** {@code java <small heap> <args>}, with the running JVM's java; does not wait. */
  static ChildJvm launch(String name, List<String> javaArgs, Path dir) {
    try {
      Files.createDirectories(dir);
      String base = name + "-" + LAUNCHES.incrementAndGet();
      List<String> cmd = new ArrayList<>();
      cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
      cmd.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
      cmd.addAll(javaArgs);
      Path out = dir.resolve(base + ".out");
      Path err = dir.resolve(base + ".err");
      Process p =
          new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      // Never leave a relay or consumer behind when the test JVM exits.
      Runtime.getRuntime().addShutdownHook(new Thread(p::destroyForcibly));
      return new ChildJvm(name, p, out, err);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code -cp <this JVM's classpath> mainClass args}. */
  static List<String> onTestClasspath(Class<?> mainClass, String... args) {
    List<String> a = new ArrayList<>(List.of("-cp", System.getProperty("java.class.path")));
    a.add(mainClass.getName());
    a.addAll(List.of(args));
    return a;
  }

  /** Waits until stdout holds {@code line}; fails with stderr if the process exits first. */
  ChildJvm awaitLine(String line) {
    await(name + " printing " + line)
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              if (!process.isAlive()) {
                throw new AssertionError(
                    name + " exited with " + process.exitValue() + ": " + stderr());
              }
              return stdout().contains(line);
            });
    return this;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** SIGKILL, and waits until the process is gone. */
  void kill9() {
    signal("KILL");
    await().atMost(Duration.ofSeconds(30)).until(() -> !process.isAlive());
  }

  void pause() {
    signal("STOP");
  }

  void resume() {
    signal("CONT");
  }

  /** SIGTERM: a graceful stop; waits for the exit. */
  void stop() {
    process.destroy();
    await().atMost(Duration.ofSeconds(60)).until(() -> !process.isAlive());
  }

  /** Waits for the process to exit by itself and returns its exit code. */
  int awaitExit(Duration atMost) throws InterruptedException {
    if (!process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError(name + " still runs after " + atMost + ": " + stdout());
    }
    return process.exitValue();
  }

  String stdout() {
    return read(out);
  }

  /** stdout and stderr together. */
  String output() {
    return stdout() + stderr();
  }

  String stderr() {
    return read(err);
  }

  private void signal(String signal) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).start();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new AssertionError("kill -" + signal + " " + pid() + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      resume(); // a stopped process must run again to die cleanly and free its sockets
      process.destroyForcibly();
    }
  }
}
