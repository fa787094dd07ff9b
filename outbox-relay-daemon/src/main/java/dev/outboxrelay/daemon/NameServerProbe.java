package dev.outboxrelay.daemon;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Optional;

/**
 * RocketMQ answers when one of its name servers ({@code host:port;host:port}) accepts a connection.
 */
final class NameServerProbe extends BrokerProbe {
  private final String addresses;

  NameServerProbe(String addresses) {
    this.addresses = addresses;
  }

  @Override
  Optional<String> check(Duration timeout) {
    String last = "no address";
    for (String a : addresses.split(";")) {
      int colon = a.lastIndexOf(':');
      try (Socket socket = new Socket()) {
        socket.connect(
            new InetSocketAddress(
                a.substring(0, colon).trim(), Integer.parseInt(a.substring(colon + 1).trim())),
            (int) Math.max(1, timeout.toMillis()));
        return Optional.empty();
      } catch (IOException | RuntimeException e) {
        last = a + ": " + e;
      }
    }
    return Optional.of(last);
  }

  @Override
  String target() {
    return "rocketmq namesrvAddr " + addresses;
  }
}
