package dev.outboxrelay.servers.internal;

import static dev.outboxrelay.servers.internal.RocketMqRemoting.GET_BROKER_CLUSTER_INFO;
import static dev.outboxrelay.servers.internal.RocketMqRemoting.GET_ROUTEINFO_BY_TOPIC;
import static dev.outboxrelay.servers.internal.RocketMqRemoting.UPDATE_AND_CREATE_TOPIC;
import static dev.outboxrelay.servers.internal.RocketMqRemoting.UPDATE_BROKER_CONFIG;

import dev.outboxrelay.servers.ServerStartException;
import dev.outboxrelay.servers.internal.RocketMqRemoting.Reply;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Readiness checks and topic creation for one RocketMQ name server and broker, the same requests as
 * the admin tool's {@code clusterList}, {@code topicRoute} and {@code updateTopic -b}.
 */
public final class RocketMqAdmin {
  private final String nameServer;
  private final String broker;
  private final int brokerPort;
  private final String brokerPermission;
  private long nextNudge;

  /**
   * @param brokerPermission the broker's {@code brokerPermission} setting (6 unless overridden)
   */
  public RocketMqAdmin(String nameServer, int brokerPort, String brokerPermission) {
    this.nameServer = nameServer;
    this.broker = "127.0.0.1:" + brokerPort;
    this.brokerPort = brokerPort;
    this.brokerPermission = brokerPermission;
  }

  /** Call before each start of the broker. */
  public synchronized void reset() {
    nextNudge = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
  }

  /**
   * Whether the name server lists the broker. A broker registers as it boots only if its scan for
   * live name servers finished first; if not, its next try is 10 s later. Re-setting its {@code
   * brokerPermission} to the same value makes it register at once, so this does that (every 2 s)
   * once the broker listens. The broker then rewrites its config file with all its settings.
   */
  public synchronized boolean brokerRegistered() {
    Reply r = RocketMqRemoting.call(nameServer, GET_BROKER_CLUSTER_INFO, Map.of());
    if (r != null && r.code() == 0 && r.body().contains(broker)) {
      return true;
    }
    if (System.nanoTime() - nextNudge >= 0 && Ports.isListening(brokerPort)) {
      nextNudge = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
      RocketMqRemoting.call(
          broker, UPDATE_BROKER_CONFIG, Map.of(), "brokerPermission=" + brokerPermission + "\n");
    }
    return false;
  }

  /**
   * Asks the broker to create or update a read-write topic; it then registers it with the name
   * server.
   *
   * @throws ServerStartException if the broker does not answer or refuses
   */
  public void createTopic(String topic, int queues) {
    String q = Integer.toString(queues);
    Reply r =
        RocketMqRemoting.call(
            broker,
            UPDATE_AND_CREATE_TOPIC,
            Map.of(
                "topic", topic,
                "defaultTopic", "TBW102",
                "readQueueNums", q,
                "writeQueueNums", q,
                "perm", "6",
                "topicFilterType", "SINGLE_TAG",
                "topicSysFlag", "0",
                "order", "false"));
    if (r == null || r.code() != 0) {
      throw new ServerStartException(
          "Broker "
              + broker
              + " did not create topic "
              + topic
              + (r == null ? ": no answer" : ": code " + r.code() + ", " + r.remark()));
    }
  }

  /** Whether the name server serves the topic's route with this many read and write queues. */
  public boolean hasRoute(String topic, int queues) {
    Reply r = RocketMqRemoting.call(nameServer, GET_ROUTEINFO_BY_TOPIC, Map.of("topic", topic));
    return r != null
        && r.code() == 0
        && r.body().matches("(?s).*\"readQueueNums\":" + queues + "\\b.*")
        && r.body().matches("(?s).*\"writeQueueNums\":" + queues + "\\b.*");
  }
}
