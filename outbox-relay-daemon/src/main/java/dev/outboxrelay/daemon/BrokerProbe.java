package dev.outboxrelay.daemon;

import dev.outboxrelay.daemon.config.RelayConfig.PublisherConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

/**
 * Asks a relay's broker whether it answers, without sending a message: Kafka through an admin
 * client's {@code describeCluster} (same bootstrap and security settings as the publisher),
 * RocketMQ by connecting to a name server. A publisher of another type has no probe and is judged
 * by its publish outcomes only. Used at start-up and, while a relay publishes nothing, by
 * readiness.
 */
abstract class BrokerProbe implements AutoCloseable {

  /** Empty if the broker answered within {@code timeout}, else why not. */
  abstract Optional<String> check(Duration timeout);

  /** What is probed, for messages: {@code kafka bootstrap.servers host:port}. */
  abstract String target();

  @Override
  public void close() {}

  static BrokerProbe of(PublisherConfig publisher) {
    Map<String, String> s = publisher.settings();
    if (publisher.type().equals("kafka") && s.containsKey("bootstrap.servers")) {
      return new Kafka(s);
    }
    if (publisher.type().equals("rocketmq")) {
      // An environment override spells it namesrvaddr; the RocketMQ factory accepts either.
      for (Map.Entry<String, String> e : s.entrySet()) {
        if (e.getKey().equalsIgnoreCase("namesrvAddr")) {
          return new NameServer(e.getValue());
        }
      }
    }
    return new None(publisher.type());
  }

  private static final class Kafka extends BrokerProbe {
    private final String servers;
    private final Admin admin;

    Kafka(Map<String, String> settings) {
      servers = settings.get("bootstrap.servers");
      Properties p = new Properties();
      // Only the admin client's own keys (TLS, SASL, ...): producer keys would log warnings.
      settings.forEach(
          (k, v) -> {
            if (AdminClientConfig.configNames().contains(k)) {
              p.put(k, v);
            }
          });
      p.put(AdminClientConfig.CLIENT_ID_CONFIG, "outbox-relay-probe");
      admin = Admin.create(p);
    }

    @Override
    Optional<String> check(Duration timeout) {
      int ms = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
      try {
        admin
            .describeCluster(new DescribeClusterOptions().timeoutMs(ms))
            .nodes()
            .get(ms + 1000L, TimeUnit.MILLISECONDS);
        return Optional.empty();
      } catch (ExecutionException e) {
        return Optional.of(String.valueOf(e.getCause()));
      } catch (TimeoutException e) {
        return Optional.of("no answer within " + ms + " ms");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.of("interrupted");
      }
    }

    @Override
    String target() {
      return "kafka bootstrap.servers " + servers;
    }

    @Override
    public void close() {
      admin.close(Duration.ZERO);
    }
  }

  private static final class NameServer extends BrokerProbe {
    private final String addresses;

    NameServer(String addresses) {
      this.addresses = addresses;
    }

    @Override
    Optional<String> check(Duration timeout) {
      String last = "no address";
      for (String a : addresses.split(";")) {
        int colon = a.lastIndexOf(':');
        try (Socket socket = new Socket()) {
          socket.connect(
              new InetSocketAddress(
                  a.substring(0, colon).trim(), Integer.parseInt(a.substring(colon + 1).trim())),
              (int) Math.max(1, timeout.toMillis()));
          return Optional.empty();
        } catch (IOException | RuntimeException e) {
          last = a + ": " + e;
        }
      }
      return Optional.of(last);
    }

    @Override
    String target() {
      return "rocketmq namesrvAddr " + addresses;
    }
  }

  private static final class None extends BrokerProbe {
    private final String type;

    None(String type) {
      this.type = type;
    }

    @Override
    Optional<String> check(Duration timeout) {
      return Optional.empty();
    }

    @Override
    String target() {
      return type + " publisher (no probe)";
    }
  }
}
