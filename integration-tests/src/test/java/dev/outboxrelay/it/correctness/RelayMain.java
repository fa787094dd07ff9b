package dev.outboxrelay.it.correctness;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.PublisherFactory;
import dev.outboxrelay.relay.cdc.CdcPositionLostException;
import dev.outboxrelay.relay.cdc.CdcRelay;
import dev.outboxrelay.relay.polling.PollingRelay;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.concurrent.CountDownLatch;

/**
 * A relay process for the correctness kit when the daemon jar is not available: one relay from a
 * {@link RelaySpec} properties file, wired like the daemon does (publisher by name through {@link
 * PublisherFactory}), printing the daemon's ready line. SIGTERM closes it gracefully; a lost CDC
 * position exits with code 3 and the reason on stderr.
 */
public final class RelayMain {
  private RelayMain() {}

  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(Path.of(args[0]))) {
      p.load(r);
    }
    Publisher publisher = publisher(p);
    HikariConfig hc = new HikariConfig();
    hc.setJdbcUrl(p.getProperty("database.url"));
    hc.setUsername(p.getProperty("database.username"));
    hc.setPassword(p.getProperty("database.password"));
    hc.setMaximumPoolSize(4);
    hc.setInitializationFailTimeout(-1);
    HikariDataSource ds = new HikariDataSource(hc);
    AutoCloseable relay;
    try {
      relay =
          "cdc".equals(p.getProperty("mode")) ? cdc(p, ds, publisher) : polling(p, ds, publisher);
    } catch (CdcPositionLostException e) {
      System.err.println(
          "outbox-relay: relay " + p.getProperty("name") + " refused to start: " + e.getMessage());
      System.exit(3);
      return;
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try (ds;
                      publisher;
                      relay) {
                    System.out.println("outbox-relay stopping");
                  } catch (Exception e) {
                    e.printStackTrace();
                  }
                }));
    System.out.println("outbox-relay-daemon ready http=none pid=" + ProcessHandle.current().pid());
    new CountDownLatch(1).await();
  }

  private static Publisher publisher(Properties p) {
    Map<String, String> settings = new HashMap<>();
    String prefix = "publisher.settings.";
    p.stringPropertyNames().stream()
        .filter(k -> k.startsWith(prefix))
        .forEach(k -> settings.put(k.substring(prefix.length()), p.getProperty(k)));
    String type = p.getProperty("publisher.type");
    for (PublisherFactory f : ServiceLoader.load(PublisherFactory.class)) {
      if (f.name().equals(type)) {
        return f.create(settings);
      }
    }
    throw new IllegalArgumentException("no publisher named " + type);
  }

  private static AutoCloseable polling(Properties p, HikariDataSource ds, Publisher publisher) {
    return PollingRelay.builder()
        .name(p.getProperty("name"))
        .dataSource(ds)
        .publisher(publisher)
        .batchSize(Integer.parseInt(p.getProperty("batch-size")))
        .inFlightBatches(Integer.parseInt(p.getProperty("in-flight-batches")))
        .pollInterval(duration(p, "poll-interval"))
        .leaseDuration(duration(p, "lease-duration"))
        .publishTimeout(duration(p, "publish-timeout"))
        .backoffInitial(duration(p, "backoff-initial"))
        .backoffMax(duration(p, "backoff-max"))
        .strictOrder(Boolean.parseBoolean(p.getProperty("strict-order", "false")))
        .build()
        .start();
  }

  private static AutoCloseable cdc(Properties p, HikariDataSource ds, Publisher publisher) {
    return CdcRelay.builder()
        .name(p.getProperty("name"))
        .source(
            p.getProperty("database.url"),
            p.getProperty("database.username"),
            p.getProperty("database.password"))
        .dataSource(ds)
        .publisher(publisher)
        .batchSize(Integer.parseInt(p.getProperty("batch-size")))
        .pollInterval(duration(p, "poll-interval"))
        .publishTimeout(duration(p, "publish-timeout"))
        .backoff(duration(p, "backoff-initial"), duration(p, "backoff-max"))
        .build()
        .start();
  }

  private static Duration duration(Properties p, String key) {
    String v = p.getProperty(key);
    return v.endsWith("ms")
        ? Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)))
        : Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
  }
}
