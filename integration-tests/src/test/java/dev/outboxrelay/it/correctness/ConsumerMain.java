package dev.outboxrelay.it.correctness;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.dedup.DedupKafkaConsumer;
import dev.outboxrelay.dedup.DedupListener;
import dev.outboxrelay.dedup.MessageIdentity;
import dev.outboxrelay.dedup.Outcome;
import java.util.concurrent.CountDownLatch;

/**
 * A dedup consumer (batch mode, two lanes, {@link Consumers#kafka}) in its own JVM, to be killed
 * with SIGKILL between its database commit and its offset commit. Arguments: bootstrap servers,
 * topic, JDBC URL, user, password, and optionally {@code N}: halt the JVM (no shutdown hooks, like
 * SIGKILL) right after the N-th database commit, before that message's offset can be committed.
 */
public final class ConsumerMain {
  private ConsumerMain() {}

  public static void main(String[] args) throws Exception {
    HikariConfig hc = new HikariConfig();
    hc.setJdbcUrl(args[2]);
    hc.setUsername(args[3]);
    hc.setPassword(args[4]);
    hc.setMaximumPoolSize(3);
    HikariDataSource ds = new HikariDataSource(hc);
    HandlerFaults faults =
        new HandlerFaults(new Outcomes(args.length > 5 ? Integer.parseInt(args[5]) : 0));
    DedupKafkaConsumer<String, byte[]> consumer =
        Consumers.kafka(
            Consumers.dedup(ds, faults),
            faults,
            args[0],
            args[1],
            "consumer-" + ProcessHandle.current().pid(),
            2);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  consumer.close();
                  ds.close();
                }));
    System.out.println("consumer ready pid=" + ProcessHandle.current().pid());
    new CountDownLatch(1).await();
  }

  /**
   * Prints one line per redelivery the dedup record suppressed and per handler failure (the batch's
   * prefix committed, the failed record sought back to), for the driver to count; halts after the
   * N-th processed message if asked to (in batch mode its whole batch committed with it).
   */
  private static final class Outcomes implements DedupListener {
    private final int haltAfter;
    private int processed;

    Outcomes(int haltAfter) {
      this.haltAfter = haltAfter;
    }

    @Override
    public void onOutcome(String group, MessageIdentity message, Outcome outcome) {
      if (outcome == Outcome.DUPLICATE) {
        System.out.println("duplicate suppressed " + message.id());
      }
      if (outcome == Outcome.STALE) { // a committed message the mark dropped: a missing effect
        System.out.println("stale skipped " + message.id());
      }
      if (outcome == Outcome.PROCESSED && ++processed == haltAfter) {
        System.out.println("halting after the database commit of " + message.id());
        Runtime.getRuntime().halt(137);
      }
    }

    @Override
    public void onFailure(String group, MessageIdentity message, Exception failure) {
      System.out.println("handler failure " + message.id());
    }
  }
}
