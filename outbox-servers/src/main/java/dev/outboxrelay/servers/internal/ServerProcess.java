package dev.outboxrelay.servers.internal;

import dev.outboxrelay.servers.ServerStartException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server JVM that can be started again with the same command (same ports and data dir). A JVM
 * shutdown hook stops it, so no server outlives the tests. Thread-safe.
 */
public final class ServerProcess {
  private static final Logger LOG = LoggerFactory.getLogger(ServerProcess.class);

  private final String name;
  private final List<String> command;
  private final Path log;
  private Process process;

  /** A server called {@code name} (for messages) run by {@code command}, output to {@code log}. */
  public ServerProcess(String name, List<String> command, Path log) {
    this.name = name;
    this.command = List.copyOf(command);
    this.log = log;
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> stop(Duration.ofSeconds(10)), name + "-shutdown"));
  }

  /**
   * Starts the process and waits until {@code ready} answers true.
   *
   * @throws ServerStartException with the log tail if it exits or is not ready in time
   */
  public synchronized void start(Duration timeout, BooleanSupplier ready) {
    if (isAlive()) {
      throw new IllegalStateException(name + " is already running");
    }
    long started = System.nanoTime();
    LOG.info("{} - Starting, log: {}", name, log);
    process = Processes.start(command, log);
    Processes.awaitReady(name, process, log, timeout, ready);
    LOG.info("{} - Started in {} ms", name, (System.nanoTime() - started) / 1_000_000);
  }

  /**
   * Waits until {@code condition} answers true, without touching the process on failure.
   *
   * @throws ServerStartException with the log tail if the process dies or time runs out
   */
  public void await(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (!isAlive()) {
        throw new ServerStartException(name + " is not running, so " + what + ": " + tail());
      }
      if (System.nanoTime() > deadline) {
        throw new ServerStartException(what + " did not happen in " + timeout + ": " + tail());
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ServerStartException("Interrupted while waiting until " + what, e);
      }
    }
  }

  /** SIGTERM, then SIGKILL after {@code grace}; does nothing if not running. */
  public synchronized void stop(Duration grace) {
    if (isAlive()) {
      LOG.info("{} - Stopping", name);
      long started = System.nanoTime();
      Processes.stop(process, grace);
      LOG.info("{} - Stopped in {} ms", name, (System.nanoTime() - started) / 1_000_000);
    }
  }

  /** SIGKILL, as a crash would; waits until the process is gone. */
  public synchronized void kill() {
    if (isAlive()) {
      LOG.info("{} - Killing", name);
      try {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Whether the process runs. */
  public synchronized boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** The last lines of the log, for messages. */
  public String tail() {
    return Processes.tail(log);
  }
}
