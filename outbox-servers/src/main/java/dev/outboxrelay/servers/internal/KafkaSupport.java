package dev.outboxrelay.servers.internal;

import dev.outboxrelay.servers.ServerStartException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;

/** Configuration, storage format and admin calls for a single-node KRaft broker. */
public final class KafkaSupport {
  /** Heap, GC and JIT of a test broker: starts fast in little memory. */
  private static final String TEST_JVM = "-Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1";

  private static final List<String> COMMON_JVM_ARGS =
      List.of(
          "-Djava.awt.headless=true",
          "-Dorg.slf4j.simpleLogger.showDateTime=true",
          "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS");

  /**
   * Replaces the broker's heap, GC and JIT options (a test broker's by default), e.g. {@code
   * -Doutbox.kafka.jvmArgs="-Xmx1g -XX:+UseG1GC"}: the benchmarks run a broker configured as in
   * production.
   */
  public static final String JVM_ARGS_PROPERTY = "outbox.kafka.jvmArgs";

  private KafkaSupport() {}

  private static List<String> jvmArgs() {
    String custom = System.getProperty(JVM_ARGS_PROPERTY, "").trim();
    List<String> args =
        new ArrayList<>(List.of((custom.isEmpty() ? TEST_JVM : custom).split("\\s+")));
    args.addAll(COMMON_JVM_ARGS);
    return args;
  }

  /** Writes {@code server.properties} and formats the storage; returns the broker's command. */
  public static List<String> prepare(Path dir, int port, int controllerPort) {
    Path config = dir.resolve("server.properties");
    JavaProcess.writeLines(
        config,
        List.of(
            "process.roles=broker,controller",
            "node.id=1",
            "controller.quorum.bootstrap.servers=127.0.0.1:" + controllerPort,
            "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
            "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
            "controller.listener.names=CONTROLLER",
            "inter.broker.listener.name=PLAINTEXT",
            "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
            "log.dirs=" + dir.resolve("data").toAbsolutePath(),
            "num.partitions=1",
            "default.replication.factor=1",
            "min.insync.replicas=1",
            "offsets.topic.replication.factor=1",
            "offsets.topic.num.partitions=1",
            "transaction.state.log.replication.factor=1",
            "transaction.state.log.min.isr=1",
            "transaction.state.log.num.partitions=1",
            "share.coordinator.state.topic.replication.factor=1",
            "share.coordinator.state.topic.min.isr=1",
            "group.initial.rebalance.delay.ms=0",
            // After kill -9 the controller refuses the restarted broker until the old session
            // expires (default 9 s); heartbeats stay local, so a shorter session is safe.
            "broker.heartbeat.interval.ms=1000",
            "broker.session.timeout.ms=5000"));
    String cp = JavaProcess.recordedClasspath("kafka");
    String id = Uuid.randomUuid().toString();
    List<String> format = List.of("format", "--standalone", "-t", id, "-c", config.toString());
    Processes.run(
        JavaProcess.command(cp, jvmArgs(), "kafka.tools.StorageTool", format),
        dir.resolve("format.log"),
        Duration.ofSeconds(60));
    return JavaProcess.command(cp, jvmArgs(), "kafka.Kafka", List.of(config.toString()));
  }

  /** An admin client with short timeouts, for probes and topic creation. */
  public static Admin admin(String bootstrapServers) {
    Properties p = new Properties();
    p.putAll(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000",
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000",
            AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200"));
    return Admin.create(p);
  }

  /**
   * Asks for the topic (replication factor 1) unless it exists; answers whether every partition has
   * a leader, false on retriable errors.
   *
   * @throws ServerStartException if the broker refuses the topic
   */
  public static boolean ensureTopic(Admin admin, String name, int partitions) {
    try {
      try {
        admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get();
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw e;
        }
      }
      TopicDescription d = admin.describeTopics(List.of(name)).topicNameValues().get(name).get();
      if (d.partitions().size() < partitions
          || !d.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
        return false;
      }
      // A leader in the metadata is not yet a leader that takes writes: a produce sent at once
      // was seen to get NOT_LEADER_OR_FOLLOWER, after which the idempotent test producer retried
      // its next batches with OUT_OF_ORDER_SEQUENCE_NUMBER for minutes. The leader answers
      // ListOffsets only once it leads the partition, so the topic is ready when every partition's
      // leader has answered it.
      Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
      d.partitions()
          .forEach(p -> latest.put(new TopicPartition(name, p.partition()), OffsetSpec.latest()));
      admin.listOffsets(latest).all().get();
      return true;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RetriableException) {
        return false;
      }
      throw new ServerStartException(
          "Could not create topic " + name + ": " + e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServerStartException("Interrupted while creating topic " + name, e);
    }
  }
}
