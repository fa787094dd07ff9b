package dev.outboxrelay.it.stop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.it.ErrorLog;
import dev.outboxrelay.it.KafkaDbFixture;
import dev.outboxrelay.it.SlowAcks;
import dev.outboxrelay.relay.cdc.CdcRelay;
import dev.outboxrelay.relay.polling.PollingRelay;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A relay closed in the middle of a backlog stops without logging an ERROR: an ERROR in the log
 * means something needs an operator, and a normal stop does not (issue 17: Debezium logged
 * "Producer failure ... InterruptedException" at every stop of the CDC relay). A subclass per
 * database.
 */
abstract class CleanStopBehaviour extends KafkaDbFixture {
  private static final int BACKLOG = 4000;

  @Test
  void closingACdcRelayWhileItStreamsABacklogLogsNoErrorAndResendsNothing() throws Exception {
    // Late acknowledgements: close() lands while a batch is sent and not yet acknowledged.
    CdcRelay relay = cdcRelay(SlowAcks.of(kafka(), Duration.ofMillis(200))).start();
    assertCleanStopMidBacklog(relay::close);
    // What the broker acknowledged after close() began was still marked: a restart sends only
    // the rest, no message twice.
    cdcRelay(kafka()).start();
    await()
        .atMost(Duration.ofSeconds(120))
        .until(() -> received().stream().map(r -> r.id()).distinct().count() == BACKLOG);
    assertThat(received()).as("messages sent, with a clean stop in between").hasSize(BACKLOG);
  }

  private CdcRelay cdcRelay(Publisher publisher) {
    CdcRelay relay =
        CdcRelay.builder()
            .name("stop_" + dataSource.getPoolName())
            .source(dataSource.getJdbcUrl(), dataSource.getUsername(), dataSource.getPassword())
            .dataSource(dataSource)
            .publisher(publisher)
            // Batches of 20 (Debezium's max.batch.size) and a small change-event queue: it is full
            // whenever publishing lags the stream, as under any real backlog; that is when close()
            // used to end in Debezium's ERROR.
            .batchSize(20)
            .debeziumProperties(Map.of("max.queue.size", "40"))
            .build();
    closeables.add(relay);
    return relay;
  }

  /**
   * Late acknowledgements here too: the relay drains 4,000 rows in well under a second, so without
   * them it can drain them all between the 200th message and close(), and the test fails with
   * "still a backlog when close() came". With them, close() lands while batches wait for their
   * acknowledgements.
   */
  @Test
  void closingAPollingRelayWhileItDrainsABacklogLogsNoError() throws Exception {
    PollingRelay relay =
        PollingRelay.builder()
            .name("stop_" + dataSource.getPoolName())
            .dataSource(dataSource)
            .publisher(SlowAcks.of(kafka(), Duration.ofMillis(200)))
            .batchSize(20)
            .build();
    closeables.add(relay);
    relay.start();
    assertCleanStopMidBacklog(relay::close);
  }

  private void assertCleanStopMidBacklog(Runnable close) throws Exception {
    for (int key = 0; key < 40; key++) {
      commit("k" + key, BACKLOG / 40);
    }
    await().atMost(Duration.ofSeconds(60)).until(() -> received().size() >= 200);
    List<String> errors;
    List<String> forcedStops;
    try (ErrorLog log = ErrorLog.capture()) {
      close.run();
      errors = log.errors();
      // Debezium's WARN before it interrupts a producer that did not stop by itself (MariaDB's
      // binlog reader then stops without an ERROR, but four seconds late).
      forcedStops = log.containing("Coordinator didn't stop in the expected time");
    }
    assertThat(received().size()).as("still a backlog when close() came").isLessThan(BACKLOG);
    assertThat(errors).as("ERROR lines logged by close()").isEmpty();
    assertThat(forcedStops).as("producer threads interrupted by close()").isEmpty();
  }
}
