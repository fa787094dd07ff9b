package dev.outboxrelay.servers;

import dev.outboxrelay.servers.internal.Ports;
import dev.outboxrelay.servers.internal.Processes;
import dev.outboxrelay.servers.internal.RocketMqAdmin;
import dev.outboxrelay.servers.internal.RocketMqSupport;
import dev.outboxrelay.servers.internal.ServerDirs;
import dev.outboxrelay.servers.internal.ServerProcess;
import dev.outboxrelay.servers.internal.SharedServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A RocketMQ 5.3 name server and one broker ({@code DefaultCluster}/{@code broker-a}), each in its
 * own JVM on 127.0.0.1. Their stores and logs ({@code namesrv.log}, {@code broker.log}, {@code
 * logs/}) stay in a directory from {@code -Doutbox.servers.dir}. Thread-safe.
 */
public final class RocketMqServer {
  private static final Logger LOG = LoggerFactory.getLogger(RocketMqServer.class);
  private static final SharedServer<RocketMqServer> SHARED =
      new SharedServer<>("RocketMQ servers", RocketMqServer::start);

  private final Path dir;
  private final int nameServerPort;
  private final int brokerPort;
  private final ServerProcess nameServer;
  private final ServerProcess broker;
  private final RocketMqAdmin admin;

  RocketMqServer(boolean syncFlush, Properties brokerProperties) {
    this.dir = ServerDirs.create("rocketmq");
    this.nameServerPort = Ports.free();
    this.brokerPort = Ports.freeWithNeighbours();
    this.nameServer =
        new ServerProcess(
            "rocketmq-namesrv-" + nameServerPort,
            RocketMqSupport.nameServer(dir, nameServerPort),
            dir.resolve("namesrv.log"));
    this.broker =
        new ServerProcess(
            "rocketmq-broker-" + brokerPort,
            RocketMqSupport.broker(
                dir, nameServerAddress(), brokerPort, syncFlush, brokerProperties),
            dir.resolve("broker.log"));
    this.admin =
        new RocketMqAdmin(
            nameServerAddress(), brokerPort, brokerProperties.getProperty("brokerPermission", "6"));
  }

  /**
   * The name server and broker shared by all tests in this JVM (ASYNC_FLUSH), started on the first
   * call and stopped when the JVM exits. Don't stop or kill them; use {@link #start()} for that.
   *
   * @throws ServerStartException if they cannot start (then every later call throws too)
   */
  public static RocketMqServer shared() {
    return SHARED.get();
  }

  /**
   * Starts private servers with the defaults of {@link #builder()}; stop them when done.
   *
   * @throws ServerStartException with the log tail if they are not ready within 90 s each
   */
  public static RocketMqServer start() {
    return builder().start();
  }

  /** Options for private servers, e.g. SYNC_FLUSH for durability tests. */
  public static RocketMqServerBuilder builder() {
    return new RocketMqServerBuilder();
  }

  /** {@code 127.0.0.1:<port>} of the name server, stable across {@link #restart()}. */
  public String nameServerAddress() {
    return "127.0.0.1:" + nameServerPort;
  }

  /** {@code 127.0.0.1:<port>} of the broker, stable across {@link #restart()}. */
  public String brokerAddress() {
    return "127.0.0.1:" + brokerPort;
  }

  /**
   * Creates or updates a read-write topic with {@code queues} read and write queues (like the admin
   * tool's {@code updateTopic -b}) and waits until the name server serves its route, so the first
   * send finds it.
   *
   * @throws ServerStartException if the broker refuses or the route takes over 30 s
   */
  public void createTopic(String topic, int queues) {
    long started = System.nanoTime();
    admin.createTopic(topic, queues);
    broker.await(
        "route of topic " + topic, Duration.ofSeconds(30), () -> admin.hasRoute(topic, queues));
    LOG.info(
        "rocketmq-broker-{} - Topic {} ready in {} ms",
        brokerPort,
        topic,
        (System.nanoTime() - started) / 1_000_000);
  }

  /** Stops the broker, then the name server: SIGTERM, SIGKILL after 15 s. */
  public synchronized void stop() {
    broker.stop(Duration.ofSeconds(15));
    nameServer.stop(Duration.ofSeconds(15));
  }

  /** Kills broker and name server with SIGKILL, as a crash would. */
  public synchronized void kill() {
    broker.kill();
    nameServer.kill();
  }

  /** Whether both the name server and the broker run. */
  public boolean isRunning() {
    return nameServer.isAlive() && broker.isAlive();
  }

  /**
   * Starts both again on the same ports and stores (stopping them first if they run).
   *
   * @throws ServerStartException if they are not ready within 90 s each
   */
  public synchronized void restart() {
    stop();
    launch();
  }

  synchronized void launch() {
    Duration timeout = Duration.ofSeconds(90);
    try {
      nameServer.start(timeout, () -> Ports.isListening(nameServerPort));
    } catch (ServerStartException e) {
      throw withMainLog(e, "namesrv");
    }
    admin.reset();
    try {
      broker.start(timeout, admin::brokerRegistered);
    } catch (ServerStartException e) {
      nameServer.kill();
      throw withMainLog(e, "broker");
    }
  }

  private ServerStartException withMainLog(ServerStartException e, String process) {
    String log = Processes.tail(RocketMqSupport.mainLog(dir, process));
    return new ServerStartException(e.getMessage() + "\n" + log, e);
  }
}
