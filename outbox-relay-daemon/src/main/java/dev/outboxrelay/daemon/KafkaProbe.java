package dev.outboxrelay.daemon;

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
import org.apache.kafka.common.errors.AuthenticationException;

/** Kafka answers when an admin client's {@code describeCluster} returns its nodes. */
final class KafkaProbe extends BrokerProbe {
  private final String servers;
  private final Admin admin;

  KafkaProbe(Map<String, String> settings) {
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
      // SASL and TLS failures (SaslAuthenticationException, SslAuthenticationException, ...) are
      // AuthenticationExceptions: a deployment to fix, not an outage to wait out.
      if (e.getCause() instanceof AuthenticationException a) {
        throw new AuthenticationFailed(a.getClass().getSimpleName() + ": " + a.getMessage());
      }
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
