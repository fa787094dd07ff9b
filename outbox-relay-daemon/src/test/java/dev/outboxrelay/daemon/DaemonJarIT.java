package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.servers.DaemonProcess;
import java.io.IOException;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The runnable jar is production code only: no JUnit, no test kit, no server launchers and no
 * PostgreSQL binaries (the demo, which needs them, has its own jar in outbox-demo).
 */
class DaemonJarIT {
  private static final List<String> FORBIDDEN =
      List.of(
          "org/junit/",
          "org/opentest4j/",
          "org/assertj/",
          "org/awaitility/",
          "dev/outboxrelay/testing/",
          "dev/outboxrelay/servers/",
          "dev/outboxrelay/demo/",
          "postgres-linux-x86_64.txz");

  @Test
  void theRunnableJarShipsNoTestCode() throws IOException {
    List<String> entries;
    try (JarFile jar = new JarFile(DaemonProcess.jar().toFile())) {
      entries = jar.stream().map(JarEntry::getName).toList();
    }
    assertThat(entries).contains("dev/outboxrelay/daemon/OutboxRelayDaemon.class");
    for (String forbidden : FORBIDDEN) {
      assertThat(entries).as("entries with %s", forbidden).noneMatch(e -> e.contains(forbidden));
    }
  }
}
