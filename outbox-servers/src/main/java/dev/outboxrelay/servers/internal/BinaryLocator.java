package dev.outboxrelay.servers.internal;

import dev.outboxrelay.servers.ServerStartException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Finds installed database server binaries; the error says which package provides them. */
public final class BinaryLocator {
  private BinaryLocator() {}

  /**
   * The directory of {@code initdb} and {@code pg_ctl}: {@code -Doutbox.postgres.bin=DIR} (or
   * {@code =bundled}), else the newest /usr/lib/postgresql/N/bin, else {@code initdb} on the PATH,
   * else the binaries bundled from Maven Central ({@link BundledPostgres}).
   */
  public static Path postgresBin() {
    String override = System.getProperty("outbox.postgres.bin");
    if ("bundled".equals(override)) {
      return BundledPostgres.bin();
    }
    if (override != null) {
      return require(Paths.get(override), "initdb", "-Doutbox.postgres.bin");
    }
    Path debian = Paths.get("/usr/lib/postgresql");
    if (Files.isDirectory(debian)) {
      try (Stream<Path> versions = Files.list(debian)) {
        Optional<Path> newest =
            versions
                .map(v -> v.resolve("bin"))
                .filter(b -> Files.isExecutable(b.resolve("initdb")))
                .max(Comparator.comparingInt(b -> version(b.getParent())));
        if (newest.isPresent()) {
          return newest.get();
        }
      } catch (IOException e) {
        // fall through to the PATH and the bundled binaries
      }
    }
    try {
      return onPath("initdb", "postgresql").getParent();
    } catch (ServerStartException notInstalled) {
      if (BundledPostgres.available()) {
        return BundledPostgres.bin();
      }
      throw notInstalled;
    }
  }

  /**
   * The OS user a server runs as when the JVM is root: {@code preferred} if it exists, else {@code
   * nobody}.
   */
  public static String serviceUser(String preferred) {
    try {
      Processes.run(
          List.of("id", "-u", preferred),
          Paths.get(System.getProperty("java.io.tmpdir"), "outbox-id-" + preferred + ".log"),
          Duration.ofSeconds(10));
      return preferred;
    } catch (ServerStartException noSuchUser) {
      return "nobody";
    }
  }

  public static Path mariadbd() {
    return mariadb("mariadbd", "/usr/sbin/mariadbd");
  }

  public static Path mariadbInstallDb() {
    return mariadb("mariadb-install-db", "/usr/bin/mariadb-install-db");
  }

  /**
   * Gives a directory to a service user, so a server started as that user can write it.
   *
   * @return false if that user still cannot write it (a parent directory is closed to it)
   */
  public static boolean handTo(String user, Path dir) {
    Path log = dir.resolveSibling(dir.getFileName() + "-chown.log");
    try {
      Processes.run(List.of("chown", "-R", user, dir.toString()), log, Duration.ofSeconds(30));
      Processes.run(
          List.of("runuser", "-u", user, "--", "test", "-w", dir.toString()),
          log,
          Duration.ofSeconds(30));
      return true;
    } catch (ServerStartException e) {
      return false;
    }
  }

  private static Path mariadb(String name, String debianPath) {
    String override = System.getProperty("outbox.mariadb.bin");
    if (override != null) {
      return require(Paths.get(override), name, "-Doutbox.mariadb.bin").resolve(name);
    }
    Path p = Paths.get(debianPath);
    return Files.isExecutable(p) ? p : onPath(name, "mariadb-server");
  }

  private static Path onPath(String name, String debianPackage) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path p = Paths.get(d, name);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    throw missing(name, debianPackage);
  }

  private static Path require(Path dir, String program, String setting) {
    if (!Files.isExecutable(dir.resolve(program))) {
      throw new ServerStartException(setting + "=" + dir + " has no executable " + program);
    }
    return dir;
  }

  private static int version(Path p) {
    try {
      return Integer.parseInt(p.getFileName().toString());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static ServerStartException missing(String program, String debianPackage) {
    return new ServerStartException(
        program
            + " not found: install Debian's "
            + debianPackage
            + " package (apt-get install -y "
            + debianPackage
            + "; .ci/run does this)");
  }
}
