package dev.outboxrelay.servers.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.servers.ServerStartException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PortConflictsTest {

  /** A "server" that binds the port it is given, failing as the launchers do when it is taken. */
  private static ServerSocket bind(int port) {
    try {
      return new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new ServerStartException("server on " + port + " exited while starting: " + e, e);
    }
  }

  @Test
  void aPortTakenBetweenChoosingAndBindingIsRetriedOnOtherPorts() throws IOException {
    int taken = Ports.free();
    List<Integer> tried = new ArrayList<>();
    try (ServerSocket other = new ServerSocket(taken, 1, InetAddress.getLoopbackAddress());
        ServerSocket started =
            PortConflicts.retry(
                "test server",
                () -> {
                  int port = tried.isEmpty() ? taken : Ports.free();
                  tried.add(port);
                  return bind(port);
                })) {
      assertThat(other.getLocalPort()).isEqualTo(taken);
      assertThat(tried).hasSize(2).startsWith(taken);
      assertThat(started.getLocalPort()).isEqualTo(tried.get(1)).isNotEqualTo(taken);
    }
  }

  @Test
  void givesUpAfterThreeAttemptsWithTheLastFailure() throws IOException {
    int taken = Ports.free();
    List<Integer> tried = new ArrayList<>();
    try (ServerSocket other = new ServerSocket(taken, 1, InetAddress.getLoopbackAddress())) {
      assertThat(other.getLocalPort()).isEqualTo(taken);
      assertThatThrownBy(
              () ->
                  PortConflicts.retry(
                      "test server",
                      () -> {
                        tried.add(taken);
                        return bind(taken);
                      }))
          .isInstanceOf(ServerStartException.class)
          .hasMessageContaining("Address already in use");
    }
    assertThat(tried).hasSize(3);
  }

  @Test
  void anotherFailureIsNotRetried() {
    List<Integer> tried = new ArrayList<>();
    assertThatThrownBy(
            () ->
                PortConflicts.retry(
                    "test server",
                    () -> {
                      tried.add(1);
                      throw new ServerStartException("initdb exited with 1: disk full");
                    }))
        .hasMessage("initdb exited with 1: disk full");
    assertThat(tried).hasSize(1);
  }

  @Test
  void noPortIsHandedOutTwiceInOneJvm() {
    // A name server's port must not fall inside the broker's block chosen after it, though
    // neither is bound yet.
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      assertThat(seen.add(Ports.free())).isTrue();
      int broker = Ports.freeWithNeighbours();
      for (int p = broker - 2; p <= broker + 1; p++) {
        assertThat(seen.add(p)).as("port %d", p).isTrue();
      }
    }
  }
}
