package dev.outboxrelay.publisher.rocketmq.internal;

import dev.outboxrelay.core.BrokerCheck.Probe;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

/**
 * RocketMQ answers when one of its name servers ({@code host:port;host:port}) accepts a connection.
 * Each probe opens and closes its own socket: nothing is kept between probes.
 */
final class NameServerProbe {
  private NameServerProbe() {}

  static Probe check(String addresses, Duration timeout) {
    String last = "no address";
    for (String a : addresses.split(";")) {
      int colon = a.lastIndexOf(':');
      try (Socket socket = new Socket()) {
        socket.connect(
            new InetSocketAddress(
                a.substring(0, colon).trim(), Integer.parseInt(a.substring(colon + 1).trim())),
            (int) Math.max(1, timeout.toMillis()));
        return Probe.answered();
      } catch (IOException | RuntimeException e) {
        last = a + ": " + e;
      }
    }
    return Probe.noAnswer(last);
  }
}
