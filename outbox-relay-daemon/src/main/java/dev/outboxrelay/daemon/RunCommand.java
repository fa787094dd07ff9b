package dev.outboxrelay.daemon;

import dev.outboxrelay.daemon.config.DaemonConfig;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Runs every configured relay until SIGTERM or SIGINT, which stop them gracefully: the batch in
 * flight finishes (or is released un-marked), leases and the heartbeat are released.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = "Run the relays of a config file until SIGTERM.")
final class RunCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(RunCommand.class);

  @Mixin ConfigOption config;

  @Override
  public Integer call() throws InterruptedException {
    DaemonConfig cfg = config.load();
    Daemon daemon = Daemon.start(cfg);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  log.info("Shutdown requested: stopping relays gracefully");
                  daemon.close();
                  log.info("outbox-relay-daemon stopped");
                  stopped.countDown();
                },
                "outbox-shutdown"));
    System.out.println(Daemon.READY_LINE + daemon.httpAddress());
    System.out.flush();
    stopped.await();
    return 0;
  }
}
