package dev.outboxrelay.publisher.kafka.internal;

import dev.outboxrelay.core.BrokerCheck.Probe;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.errors.AuthenticationException;

/**
 * Kafka answers when an admin client's {@code describeCluster} returns its nodes. The admin client
 * (the publisher's bootstrap and security settings) is created at the first probe and kept until
 * {@link #close}, so a probe every few seconds costs one request, not a new connection.
 */
final class KafkaClusterProbe implements AutoCloseable {
  private final Map<String, String> settings;
  private Admin admin; // guarded by this

  KafkaClusterProbe(Map<String, String> settings) {
    this.settings = settings;
  }

  Probe check(Duration timeout) {
    int ms = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
    try {
      admin()
          .describeCluster(new DescribeClusterOptions().timeoutMs(ms))
          .nodes()
          .get(ms + 1000L, TimeUnit.MILLISECONDS);
      return Probe.answered();
    } catch (ExecutionException e) {
      // SASL and TLS failures (SaslAuthenticationException, SslAuthenticationException, ...) are
      // AuthenticationExceptions: a deployment to fix, not an outage to wait out.
      if (e.getCause() instanceof AuthenticationException a) {
        return Probe.refused(a.getClass().getSimpleName() + ": " + a.getMessage());
      }
      return Probe.noAnswer(String.valueOf(e.getCause()));
    } catch (TimeoutException e) {
      return Probe.noAnswer("no answer within " + ms + " ms");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Probe.noAnswer("interrupted");
    } catch (RuntimeException e) {
      return Probe.noAnswer(String.valueOf(e)); // the admin client refused to start
    }
  }

  String target() {
    return "kafka bootstrap.servers " + settings.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
  }

  private synchronized Admin admin() {
    if (admin == null) {
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
    return admin;
  }

  @Override
  public synchronized void close() {
    if (admin != null) {
      admin.close(Duration.ZERO);
      admin = null;
    }
  }
}
