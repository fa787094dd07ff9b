package dev.outboxrelay.it.correctness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A relay in its own JVM: the daemon jar ({@code -Doutbox.daemon.jar}, {@code run --config
 * relay.yaml}) when the build provides it, else {@link RelayMain} on the test classpath. Both print
 * {@code outbox-relay-daemon ready} once running.
 */
final class RelayProcess {
  static final String READY = "outbox-relay-daemon ready";
  private static final AtomicInteger CONFIGS = new AtomicInteger();

  private RelayProcess() {}

  /**
   * Whether relays run from the daemon jar rather than {@link RelayMain}: when the jar exists,
   * unless {@code -Dcorrectness.relays=main}.
   */
  static boolean usesDaemonJar() {
    if ("main".equals(System.getProperty("correctness.relays"))) {
      return false;
    }
    String jar = System.getProperty("outbox.daemon.jar");
    return jar != null && Files.isRegularFile(Path.of(jar));
  }

  /** Launches the relay without waiting for it to be ready. */
  static ChildJvm launch(RelaySpec spec, Path dir) {
    String base = spec.name() + "-" + CONFIGS.incrementAndGet();
    if (usesDaemonJar()) {
      Path yaml = dir.resolve(base + ".yaml");
      write(dir, () -> spec.writeYaml(yaml));
      return ChildJvm.launch(
          spec.name(),
          List.of(
              "-jar", System.getProperty("outbox.daemon.jar"), "run", "--config", yaml.toString()),
          dir);
    }
    Path props = dir.resolve(base + ".properties");
    write(dir, () -> spec.writeProperties(props));
    return ChildJvm.launch(
        spec.name(), ChildJvm.onTestClasspath(RelayMain.class, props.toString()), dir);
  }

  /** Launches the relay and waits for its ready line. */
  static ChildJvm start(RelaySpec spec, Path dir) {
    return launch(spec, dir).awaitLine(READY);
  }

  private static void write(Path dir, Runnable writer) {
    try {
      Files.createDirectories(dir);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    writer.run();
  }
}
