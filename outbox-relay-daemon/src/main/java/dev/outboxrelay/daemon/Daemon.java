package dev.outboxrelay.daemon;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.outboxrelay.daemon.config.DaemonConfig;
import dev.outboxrelay.micrometer.RelayMeter;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running daemon: every configured relay, the HTTP endpoints ({@code /health/live}, {@code
 * /health/ready}, {@code /metrics}) and a sampler for the table-derived gauges. {@link #close()}
 * stops relays gracefully (batches finish or are released, leases released), then the endpoints.
 */
public final class Daemon implements AutoCloseable {
  static final String READY_LINE = "outbox-relay-daemon ready http=";
  private static final Logger log = LoggerFactory.getLogger(Daemon.class);

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final List<RelayService> relays = new ArrayList<>();
  private final ScheduledExecutorService sampler =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "outbox-metrics-sampler");
            t.setDaemon(true);
            return t;
          });
  private HttpServer http;

  /** Builds and starts every relay, then the endpoints; on any failure stops what started. */
  public static Daemon start(DaemonConfig config) {
    Daemon daemon = new Daemon();
    try {
      daemon.startAll(config);
      return daemon;
    } catch (RuntimeException e) {
      daemon.close();
      throw e;
    }
  }

  /**
   * Order matters: what needs no server (every relay's publisher settings) is checked before any
   * wait, then everything else that can be checked (the port, each database, its tables, each
   * broker) before any relay starts, so a failure takes no lease and claims no row.
   */
  private void startAll(DaemonConfig config) {
    for (int i = 0; i < config.relays().size(); i++) {
      PublisherCheck.beforeAnyWait(config.relays().get(i), i); // no server needed: before waits
    }
    bindHttp(config);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    long deadline = System.nanoTime() + config.startupTimeout().toNanos();
    for (int i = 0; i < config.relays().size(); i++) {
      relays.add(
          RelayService.create(
              config.relays().get(i), i, registry, deadline, config.startupTimeout()));
    }
    for (RelayService r : relays) {
      r.start();
    }
    sampler.scheduleWithFixedDelay(this::sampleAll, 0, 2, TimeUnit.SECONDS);
    awaitFirstLeases();
    HttpEndpoints.serve(
        http,
        config.http(),
        Map.of(
            "/health/live",
            x -> respond(x, 200, "{\"status\":\"UP\"}", "json"),
            "/health/ready",
            this::ready,
            "/metrics",
            x -> respond(x, 200, registry.scrape(), "text/plain; version=0.0.4; charset=utf-8")));
  }

  /** A scheduled task that throws is never run again: readiness would freeze, so catch all. */
  private void sampleAll() {
    for (RelayService r : relays) {
      try {
        r.sample();
      } catch (RuntimeException e) {
        log.warn("Relay {} - sampling failed: {}", r.config().name(), e.toString());
      }
    }
  }

  private void bindHttp(DaemonConfig config) {
    http = HttpEndpoints.bind(config.http());
  }

  /**
   * A polling relay alone on its table takes its first leases moments after it starts; waiting
   * briefly for them makes the first readiness answer after the ready line the settled one. Short,
   * because a relay joining others gets its share only at their next rebalance (a third of the
   * lease duration), and the ready line should not wait for that.
   */
  private void awaitFirstLeases() {
    long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
    while (System.nanoTime() - until < 0 && !relays.stream().allMatch(r -> r.readiness().up())) {
      try {
        Thread.sleep(50); // start-up only; readiness has no completion to wait on
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Messages acknowledged by the broker and marked done, over every relay of this process. */
  public long publishedCount() {
    return Math.round(
        registry.find(RelayMeter.PUBLISHED.meterName()).functionCounters().stream()
            .mapToDouble(c -> c.count())
            .sum());
  }

  /** Where the endpoints listen, {@code host:port}. */
  public String httpAddress() {
    InetSocketAddress a = http.getAddress();
    return a.getHostString() + ":" + a.getPort();
  }

  private void ready(HttpExchange x) throws IOException {
    StringBuilder body = new StringBuilder("{\"relays\":{");
    boolean all = true;
    for (int i = 0; i < relays.size(); i++) {
      RelayService r = relays.get(i);
      Readiness readiness = r.readiness();
      all &= readiness.up();
      body.append(i == 0 ? "" : ",")
          .append(Readiness.quote(r.config().name()))
          .append(':')
          .append(readiness.json());
    }
    body.append("},\"status\":\"").append(all ? "UP" : "DOWN").append("\"}");
    respond(x, all ? 200 : 503, body.toString(), "json");
  }

  private static void respond(HttpExchange x, int status, String body, String type)
      throws IOException {
    HttpEndpoints.respond(x, status, body, type);
  }

  @Override
  public synchronized void close() {
    sampler.shutdownNow();
    for (RelayService r : relays) {
      try {
        r.close();
      } catch (RuntimeException e) {
        log.warn("Relay {} did not stop cleanly: {}", r.config().name(), e.toString());
      }
    }
    relays.clear();
    if (http != null) {
      http.stop(0);
      http = null;
    }
  }
}
