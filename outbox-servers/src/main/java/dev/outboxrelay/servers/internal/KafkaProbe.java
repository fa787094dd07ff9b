package dev.outboxrelay.servers.internal;

import dev.outboxrelay.servers.ServerStartException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;

/**
 * Whether a starting broker answers {@code describeCluster}. The admin client is created only once
 * the port listens, so it doesn't log a connection failure every few milliseconds before that.
 */
public final class KafkaProbe implements BooleanSupplier, AutoCloseable {
  private final int port;
  private Admin admin;

  /** A probe of the broker on 127.0.0.1:{@code port}. */
  public KafkaProbe(int port) {
    this.port = port;
  }

  @Override
  public boolean getAsBoolean() {
    if (admin == null) {
      if (!Ports.isListening(port)) {
        return false;
      }
      admin = KafkaSupport.admin("127.0.0.1:" + port);
    }
    try {
      return !admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).isEmpty();
    } catch (ExecutionException | TimeoutException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServerStartException("Interrupted while probing Kafka", e);
    }
  }

  @Override
  public void close() {
    if (admin != null) {
      admin.close();
    }
  }
}
