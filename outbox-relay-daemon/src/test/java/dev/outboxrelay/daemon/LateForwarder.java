package dev.outboxrelay.daemon;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A TCP port that refuses connections (nothing listens) until {@link #open()}, then forwards every
 * connection to a real server: a database that is down at first and comes up later, as seen by a
 * client. For start-up retry tests.
 */
final class LateForwarder implements AutoCloseable {
  private final int port;
  private final int target;
  private volatile ServerSocket server;

  LateForwarder(int target) throws IOException {
    this.target = target;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort(); // free now; nothing listens until open()
    }
  }

  int port() {
    return port;
  }

  /** Starts listening now; connections are accepted and forwarded in the background. */
  void open() throws IOException {
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    server = s;
    Thread t = new Thread(() -> acceptAll(s), "late-forwarder");
    t.setDaemon(true);
    t.start();
  }

  private void acceptAll(ServerSocket s) {
    try {
      while (!s.isClosed()) {
        Socket in = s.accept();
        Socket out = new Socket(InetAddress.getLoopbackAddress(), target);
        pump(in, out);
        pump(out, in);
      }
    } catch (IOException e) {
      // closed
    }
  }

  private static void pump(Socket from, Socket to) {
    Thread t =
        new Thread(
            () -> {
              try (InputStream i = from.getInputStream();
                  OutputStream o = to.getOutputStream()) {
                i.transferTo(o);
              } catch (IOException e) {
                // the other side closed
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            },
            "late-forwarder-pump");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    if (server != null) {
      server.close();
    }
  }
}
