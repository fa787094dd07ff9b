package dev.outboxrelay.servers.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/** Free loopback ports and readiness probes. */
public final class Ports {
  private Ports() {}

  // Below Linux's ephemeral range (32768-60999 by default), so no outgoing connection can take a
  // server's port between choosing it and binding it, or while the server is down for a restart.
  private static final int LOW = 20_000;
  private static final int HIGH = 32_000;

  // Every port handed out in this JVM, never handed out again: a server chosen a port for has not
  // bound it yet when the next server's ports are chosen (RocketMQ's name server and broker, a
  // Kafka broker's two listeners), and a stopped server keeps its ports for a restart. Guarded by
  // freeBlock's lock.
  private static final Set<Integer> HANDED_OUT = new HashSet<>();

  /** A port that was free on 127.0.0.1 a moment ago, outside the ephemeral range. */
  public static int free() {
    return freeBlock(1);
  }

  /** A port p such that p-2 .. p+1 were all free (RocketMQ's broker binds them). */
  public static int freeWithNeighbours() {
    return freeBlock(4) + 2;
  }

  private static synchronized int freeBlock(int size) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int attempt = 0; attempt < 200; attempt++) {
      int first = random.nextInt(LOW, HIGH - size);
      boolean free = true;
      for (int p = first; p < first + size && free; p++) {
        free = !HANDED_OUT.contains(p) && isFree(p);
      }
      if (free) {
        for (int p = first; p < first + size; p++) {
          HANDED_OUT.add(p);
        }
        return first;
      }
    }
    throw new IllegalStateException("No free block of " + size + " ports on 127.0.0.1");
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
