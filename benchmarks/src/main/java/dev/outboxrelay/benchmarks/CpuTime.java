package dev.outboxrelay.benchmarks;

import dev.outboxrelay.core.SqlDialect;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Stream;

/**
 * CPU time used so far by this JVM and by the database server's processes (every {@code postgres}
 * process, the ended backends with the postmaster's children's time, or {@code mariadbd}), read
 * from the JVM and from {@code /proc} (Linux). The database figure counts every server of that name
 * on the machine: measure with nothing else running.
 */
final class CpuTime {
  private static final long TICKS_PER_SECOND = 100; // USER_HZ on Linux

  private CpuTime() {}

  static long jvmNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  static long databaseNanos(SqlDialect dialect) {
    Set<String> names =
        dialect == SqlDialect.POSTGRESQL ? Set.of("postgres") : Set.of("mariadbd", "mysqld");
    long ticks = 0;
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path p : (Iterable<Path>) procs::iterator) {
        if (p.getFileName().toString().chars().allMatch(Character::isDigit)) {
          ticks += ticks(p.resolve("stat"), names);
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot read /proc: " + e, e);
    }
    return ticks * 1_000_000_000L / TICKS_PER_SECOND;
  }

  /**
   * utime + stime of the process if its name is one of {@code names}, else 0, and cutime + cstime:
   * the ended children it waited for. A PostgreSQL backend's CPU leaves {@code /proc} when its
   * connection closes, and reappears there in the postmaster's cutime.
   */
  private static long ticks(Path stat, Set<String> names) {
    String line;
    try {
      line = Files.readString(stat);
    } catch (IOException e) {
      return 0; // the process ended meanwhile
    }
    int open = line.indexOf('(');
    int close = line.lastIndexOf(')');
    if (open < 0 || close < open || !names.contains(line.substring(open + 1, close))) {
      return 0;
    }
    // Fields after the name: state(3) ... utime(14) stime(15), counted from 1 with pid first.
    String[] f = line.substring(close + 2).split(" ");
    return Long.parseLong(f[11])
        + Long.parseLong(f[12])
        + Long.parseLong(f[13])
        + Long.parseLong(f[14]);
  }
}
