package dev.outboxrelay.testing.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** Free loopback ports and readiness probes. */
public final class Ports {
  private Ports() {}

  /** A port that was free on 127.0.0.1 a moment ago. */
  public static int free() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("No free port on 127.0.0.1", e);
    }
  }

  /** A port p such that p-2 .. p+1 were all free (RocketMQ's broker binds them). */
  public static int freeWithNeighbours() {
    for (int attempt = 0; attempt < 50; attempt++) {
      int p = free();
      if (p > 1026 && isFree(p - 2) && isFree(p - 1) && isFree(p + 1)) {
        return p;
      }
    }
    throw new IllegalStateException("No free block of four ports on 127.0.0.1");
  }

  /** Whether something accepts TCP connections on 127.0.0.1:port. */
  public static boolean isListening(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean isFree(int port) {
    try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
