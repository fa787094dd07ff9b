package dev.outboxrelay.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.publisher.kafka.KafkaPublisher;
import dev.outboxrelay.relay.polling.PollingRelay;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A polling relay alone in its own JVM, for the memory figure when the daemon jar is not built:
 * {@code RelayProcess <jdbcUrl> <user> <password> <bootstrap> <topicPrefix>}. Prints {@code ready},
 * runs until its standard input closes.
 */
public final class RelayProcess {
  private RelayProcess() {}

  public static void main(String[] args) throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(args[0]);
    config.setUsername(args[1]);
    config.setPassword(args[2]);
    config.setMaximumPoolSize(4);
    try (HikariDataSource ds = new HikariDataSource(config);
        KafkaPublisher publisher =
            KafkaPublisher.builder()
                .producerProperty("bootstrap.servers", args[3])
                .producerProperty("linger.ms", "5")
                .producerProperty("batch.size", String.valueOf(256 * 1024))
                .producerProperty("compression.type", "lz4")
                .topicTemplate(TopicTemplate.of(args[4] + TopicTemplate.PLACEHOLDER))
                .build();
        PollingRelay relay =
            PollingRelay.builder()
                .name("rss")
                .dataSource(ds)
                .publisher(publisher)
                .build()
                .start()) {
      System.out.println("ready");
      System.out.flush();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      while (in.readLine() != null) {
        // wait for the parent to close our stdin
      }
    }
  }
}
