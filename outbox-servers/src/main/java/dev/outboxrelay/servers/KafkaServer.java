package dev.outboxrelay.servers;

import dev.outboxrelay.servers.internal.KafkaProbe;
import dev.outboxrelay.servers.internal.KafkaSupport;
import dev.outboxrelay.servers.internal.PortConflicts;
import dev.outboxrelay.servers.internal.Ports;
import dev.outboxrelay.servers.internal.ServerDirs;
import dev.outboxrelay.servers.internal.ServerProcess;
import dev.outboxrelay.servers.internal.SharedServer;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.kafka.clients.admin.Admin;

/**
 * A single-node Kafka 4.1 KRaft broker (broker and controller in one process) in its own JVM,
 * listening on 127.0.0.1. Its data and log ({@code kafka.log}) stay in a directory from {@code
 * -Doutbox.servers.dir}. Thread-safe.
 */
public final class KafkaServer {
  /**
   * System property with the broker JVM's options, replacing the default {@code -Xmx512m
   * -XX:+UseSerialGC -XX:TieredStopAtLevel=1}; read at each start.
   */
  public static final String JVM_ARGS_PROPERTY = KafkaSupport.JVM_ARGS_PROPERTY;

  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final SharedServer<KafkaServer> SHARED =
      new SharedServer<>("Kafka broker", KafkaServer::start);

  private final int port;
  private final ServerProcess process;

  private KafkaServer(Path dir, int port, int controllerPort) {
    this.port = port;
    this.process =
        new ServerProcess(
            "kafka-" + port,
            KafkaSupport.prepare(dir, port, controllerPort),
            dir.resolve("kafka.log"));
  }

  /**
   * The broker shared by all tests in this JVM, started on the first call and stopped when the JVM
   * exits. Don't stop or kill it; use {@link #start()} for outage tests.
   *
   * @throws ServerStartException if it cannot start (then every later call throws too)
   */
  public static KafkaServer shared() {
    return SHARED.get();
  }

  /**
   * Starts a private broker on free ports; stop it when done (a JVM shutdown hook stops it too).
   *
   * @throws ServerStartException with the broker's log tail if it is not ready within 90 s
   */
  public static KafkaServer start() {
    return PortConflicts.retry(
        "Kafka",
        () -> {
          KafkaServer server =
              new KafkaServer(ServerDirs.create("kafka"), Ports.free(), Ports.free());
          server.launch();
          return server;
        });
  }

  /** {@code 127.0.0.1:<port>}, stable across {@link #restart()}. */
  public String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  /**
   * Creates a topic with replication factor 1 (an existing one is left as it is) and waits until
   * every partition has a leader.
   *
   * @throws ServerStartException if the broker refuses, is down, or that takes over 30 s
   */
  public void createTopic(String name, int partitions) {
    try (Admin admin = KafkaSupport.admin(bootstrapServers())) {
      process.await(
          "topic " + name + " ready",
          Duration.ofSeconds(30),
          () -> KafkaSupport.ensureTopic(admin, name, partitions));
    }
  }

  /** Stops the broker: SIGTERM (controlled shutdown), SIGKILL after 20 s. */
  public void stop() {
    process.stop(Duration.ofSeconds(20));
  }

  /** Kills the broker with SIGKILL, as a crash would. */
  public void kill() {
    process.kill();
  }

  /** Whether the broker process runs. */
  public boolean isRunning() {
    return process.isAlive();
  }

  /**
   * Starts the broker again on the same ports and data (stopping it first if it runs).
   *
   * @throws ServerStartException if it is not ready within 90 s
   */
  public synchronized void restart() {
    stop();
    launch();
  }

  private synchronized void launch() {
    try (KafkaProbe probe = new KafkaProbe(port)) {
      process.start(START_TIMEOUT, probe);
    }
  }
}
