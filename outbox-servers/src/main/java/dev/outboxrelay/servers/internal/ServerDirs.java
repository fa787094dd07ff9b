package dev.outboxrelay.servers.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Where servers keep data and logs: {@code -Doutbox.servers.dir} (the build sets it to the module's
 * {@code target/servers}), else {@code java.io.tmpdir/outbox-servers}.
 */
public final class ServerDirs {
  private ServerDirs() {}

  /** A new, empty directory for one server instance. */
  public static Path create(String name) {
    String base = System.getProperty("outbox.servers.dir");
    Path root =
        base != null && !base.isBlank()
            ? Paths.get(base)
            : Paths.get(System.getProperty("java.io.tmpdir"), "outbox-servers");
    return createUnder(root, name);
  }

  /** A new, empty directory named after {@code name} under {@code root}. */
  public static Path createUnder(Path root, String name) {
    try {
      Files.createDirectories(root);
      return Files.createTempDirectory(root.toAbsolutePath(), name + "-");
    } catch (IOException e) {
      throw new UncheckedIOException("Could not create a directory under " + root, e);
    }
  }

  /** Whether this JVM runs as root (uid 0). */
  public static boolean runningAsRoot() {
    return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
  }
}
