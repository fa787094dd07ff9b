package dev.outboxrelay.servers;

import dev.outboxrelay.servers.internal.JavaProcess;
import dev.outboxrelay.servers.internal.Ports;
import dev.outboxrelay.servers.internal.Processes;
import dev.outboxrelay.servers.internal.ServerDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A Kafka Connect standalone worker (Kafka 4.1, Debezium's connectors) in its own JVM, from the
 * classpath recorded by {@code outbox-testing-runtime-kafka-connect}, which must be on the
 * classpath. Its files and log ({@code connect.log}) stay in a directory from {@code
 * -Doutbox.servers.dir}. Not thread-safe.
 */
public final class KafkaConnectWorker implements AutoCloseable {
  private final Path dir;
  private final Process process;

  private KafkaConnectWorker(Path dir, Process process) {
    this.dir = dir;
    this.process = process;
  }

  /**
   * Starts {@code ConnectStandalone} with one connector. The worker listens for REST calls on a
   * free loopback port and keeps its offsets in its directory; {@code workerSettings} adds to or
   * overrides those ({@code key=value} lines, e.g. {@code bootstrap.servers=...}). Does not wait
   * for the connector to run: the caller awaits its effect.
   *
   * @throws ServerStartException if the recorded classpath is missing or the JVM cannot start
   */
  public static KafkaConnectWorker start(List<String> workerSettings, List<String> connector) {
    Path dir = ServerDirs.create("kafka-connect");
    List<String> worker = new ArrayList<>();
    worker.add("listeners=http://127.0.0.1:" + Ports.free());
    worker.add("offset.storage.file.filename=" + dir.resolve("connect.offsets"));
    worker.addAll(workerSettings);
    Path workerFile = dir.resolve("worker.properties");
    Path connectorFile = dir.resolve("connector.properties");
    JavaProcess.writeLines(workerFile, worker);
    JavaProcess.writeLines(connectorFile, connector);
    Process process =
        Processes.start(
            JavaProcess.command(
                JavaProcess.recordedClasspath("kafka-connect"),
                List.of("-Xmx384m", "-XX:+UseSerialGC"),
                "org.apache.kafka.connect.cli.ConnectStandalone",
                List.of(workerFile.toString(), connectorFile.toString())),
            dir.resolve("connect.log"));
    return new KafkaConnectWorker(dir, process);
  }

  /** Whether the worker's JVM is still running. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** The last lines of the worker's log, for assertion messages. */
  public String logTail() {
    return Processes.tail(dir.resolve("connect.log"));
  }

  /** Stops the worker: SIGTERM, then SIGKILL after 20 seconds. */
  @Override
  public void close() {
    Processes.stop(process, Duration.ofSeconds(20));
  }
}
