package dev.outboxrelay.servers.internal;

import dev.outboxrelay.servers.ServerStartException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/** Configuration files and command lines for RocketMQ's name server and broker. */
public final class RocketMqSupport {
  private RocketMqSupport() {}

  /** Writes {@code namesrv.properties}; returns the name server's command. */
  public static List<String> nameServer(Path dir, int port) {
    Path config = dir.resolve("namesrv.properties");
    JavaProcess.writeLines(config, List.of("listenPort=" + port, "bindAddress=127.0.0.1"));
    return command(
        dir.resolve("namesrv"),
        "-Xmx256m",
        "org.apache.rocketmq.namesrv.NamesrvStartup",
        "-c",
        config.toString());
  }

  /**
   * Writes {@code broker.conf}; returns the broker's command.
   *
   * @param overrides broker settings that replace or add to the defaults here
   */
  public static List<String> broker(
      Path dir, String nameServer, int port, boolean syncFlush, Properties overrides) {
    Path store = dir.resolve("store").toAbsolutePath();
    List<String> lines =
        new ArrayList<>(
            List.of(
                "brokerClusterName=DefaultCluster",
                "brokerName=broker-a",
                "brokerId=0",
                "brokerIP1=127.0.0.1",
                "namesrvAddr=" + nameServer,
                "listenPort=" + port,
                "bindAddress=127.0.0.1",
                "storePathRootDir=" + store,
                "storePathCommitLog=" + store.resolve("commitlog"),
                "autoCreateTopicEnable=true",
                "flushDiskType=" + (syncFlush ? "SYNC_FLUSH" : "ASYNC_FLUSH"),
                "mappedFileSizeCommitLog=" + (64 << 20),
                "timerWheelEnable=false"));
    for (Map.Entry<Object, Object> e : overrides.entrySet()) {
      lines.removeIf(line -> line.startsWith(e.getKey() + "="));
      lines.add(e.getKey() + "=" + e.getValue());
    }
    Path config = dir.resolve("broker.conf");
    JavaProcess.writeLines(config, lines);
    return command(
        dir.resolve("broker"),
        "-Xmx512m",
        "org.apache.rocketmq.broker.BrokerStartup",
        "-c",
        config.toString());
  }

  /** The main log of the name server's or broker's process ({@code stdout} has little). */
  public static Path mainLog(Path dir, String process) {
    return dir.resolve(process).resolve("logs/rocketmqlogs/broker.log");
  }

  /**
   * RocketMQ writes its logs ({@code logs/rocketmqlogs}) under user.home and insists on a home dir;
   * each process gets its own, as they would otherwise write into the same log files.
   */
  private static List<String> command(Path home, String heap, String... mainAndArgs) {
    try {
      Files.createDirectories(home);
    } catch (IOException e) {
      throw new ServerStartException("Could not create " + home, e);
    }
    List<String> jvm =
        List.of(
            heap,
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-Djava.awt.headless=true",
            "-Duser.home=" + home.toAbsolutePath(),
            "-Drocketmq.home.dir=" + home.toAbsolutePath(),
            // Its shaded logback would print its whole configuration to stdout on every start.
            "-Dlogback.statusListenerClass="
                + "org.apache.rocketmq.logging.ch.qos.logback.core.status.NopStatusListener");
    List<String> args = List.of(mainAndArgs).subList(1, mainAndArgs.length);
    return JavaProcess.command(
        JavaProcess.recordedClasspath("rocketmq"), jvm, mainAndArgs[0], args);
  }
}
