package dev.outboxrelay.relay.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CatchUpTest {
  /** Pending in the fence's view: a = 10, 11; b = 12, 14; c = 13. */
  private final CatchUp catchUp = fenced();

  private static CatchUp fenced() {
    CatchUp c = new CatchUp();
    c.fenced(
        new CatchUp.Pending(new long[] {10, 11, 12, 13, 14}, Map.of("a", 10L, "b", 12L, "c", 13L)),
        UUID.randomUUID());
    return c;
  }

  @Test
  void aKeyWhoseFirstPendingRowTheStreamCarriesFirstFlows() {
    assertThat(catchUp.mayFlow("a", 10, true, false)).isTrue();
    assertThat(catchUp.mayFlow("a", 11, true, false)).isTrue();
  }

  @Test
  void aKeyWhoseFirstPendingRowTheStreamSkippedWaitsForTheFence() {
    // 12 was never streamed: it committed before the stream's position, and must go out first.
    assertThat(catchUp.mayFlow("b", 14, true, false)).isFalse();
    assertThat(catchUp.mayFlow("b", 15, true, false)).isFalse();
  }

  @Test
  void aRowCommittedAfterTheViewWaitsAndSoDoesTheRestOfItsKey() {
    assertThat(catchUp.mayFlow("a", 10, true, false)).isTrue();
    assertThat(catchUp.mayFlow("a", 20, true, false)).isFalse();
    assertThat(catchUp.mayFlow("a", 11, true, false)).isFalse();
  }

  @Test
  void aKeyWithNoPendingRowInTheViewWaits() {
    // A replayed row already marked done, or one committed after the view: both are read again.
    assertThat(catchUp.mayFlow("d", 9, true, false)).isFalse();
  }

  @Test
  void rowsWithoutKeyOrderAndRowsOfHeldKeysWait() {
    assertThat(catchUp.mayFlow("c", 13, false, false)).isFalse();
    assertThat(catchUp.mayFlow("a", 10, true, true)).isFalse();
    assertThat(catchUp.mayFlow("a", 11, true, false)).isFalse();
  }

  @Test
  void beforeIsWhatTheStreamDidNotCarryAndRecordedKeepsStreamOrder() {
    catchUp.seen(14);
    catchUp.record(14, 7);
    catchUp.seen(10);
    catchUp.seen(11);
    catchUp.seen(13);
    catchUp.record(13, 7);
    assertThat(catchUp.before()).containsExactly(12);
    assertThat(catchUp.recorded()).containsExactly(14, 13);
    assertThat(catchUp.recordedTxids()).containsExactly(7);
  }
}
