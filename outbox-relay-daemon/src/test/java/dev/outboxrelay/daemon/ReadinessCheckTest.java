package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.RelayState;
import dev.outboxrelay.core.RelayState.Phase;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ReadinessCheckTest {

  @Test
  void aPollingRelayOwningNoBucketsIsAReadyStandbyNotAFailure() {
    assertThat(problems(polling(Phase.ACTIVE, "", 256))).containsExactly("publisher: x");
    assertThat(problems(polling(Phase.STANDBY, "owns no key buckets", 0)))
        .containsExactly("publisher: x");
    List<String> healthy = new ArrayList<>();
    ReadinessCheck.addProblems(polling(Phase.STANDBY, "owns no key buckets", 0), false, healthy);
    assertThat(healthy).isEmpty();
    assertThat(problems(polling(Phase.STARTING, "taking key-bucket leases", 0)))
        .containsExactly("publisher: x", "relay: starting: taking key-bucket leases");
  }

  @Test
  void aFailedOrStoppedRelaysProblemComesFirst() {
    assertThat(problems(polling(Phase.FAILED, "worker thread not running", 0)))
        .containsExactly("relay: worker thread not running", "publisher: x");
    assertThat(problems(RelayState.of(Phase.STOPPING, "stopping")))
        .containsExactly("relay: not started or stopping", "publisher: x");
    assertThat(problems(RelayState.of(Phase.NEW, "not started")))
        .containsExactly("relay: not started or stopping", "publisher: x");
  }

  @Test
  void aCdcRelayIsReadyStreamingOrOnStandby() {
    assertThat(cdcProblems(RelayState.of(Phase.ACTIVE, ""))).isEmpty();
    assertThat(cdcProblems(RelayState.of(Phase.STANDBY, "another instance holds it"))).isEmpty();
    assertThat(cdcProblems(RelayState.of(Phase.FAILED, "engine failed (restart #1 pending): x")))
        .containsExactly("relay: CDC failed: engine failed (restart #1 pending): x");
    assertThat(cdcProblems(RelayState.of(Phase.STARTING, "establishing the stream position")))
        .containsExactly("relay: CDC starting: establishing the stream position");
  }

  @Test
  void theCdcRoleFollowsThePhase() {
    assertThat(CdcRole.role(RelayState.of(Phase.ACTIVE, ""))).isEqualTo("streaming");
    assertThat(CdcRole.role(RelayState.of(Phase.STANDBY, "x"))).isEqualTo("standby");
    assertThat(CdcRole.role(RelayState.of(Phase.FAILED, "x"))).isEqualTo("failed");
    assertThat(CdcRole.role(RelayState.of(Phase.STOPPED, "x"))).isEqualTo("stopped");
  }

  private static RelayState polling(Phase phase, String reason, int buckets) {
    return new RelayState(phase, reason, OptionalInt.of(buckets), 0, OptionalInt.empty());
  }

  private static List<String> problems(RelayState state) {
    List<String> problems = new ArrayList<>(List.of("publisher: x"));
    ReadinessCheck.addProblems(state, false, problems);
    return problems;
  }

  private static List<String> cdcProblems(RelayState state) {
    List<String> problems = new ArrayList<>();
    ReadinessCheck.addProblems(state, true, problems);
    return problems;
  }
}
