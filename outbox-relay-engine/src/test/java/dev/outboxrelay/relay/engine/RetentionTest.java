package dev.outboxrelay.relay.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxConfigException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetentionTest {
  @Test
  void deletingKeepsNoRowsAndKeepingHasAWindow() {
    assertThat(Retention.deleteImmediately().keepsRows()).isFalse();
    assertThat(Retention.deleteImmediately().window()).isEmpty();
    Retention keep = Retention.keepFor(Duration.ofHours(1));
    assertThat(keep.keepsRows()).isTrue();
    assertThat(keep.window()).contains(Duration.ofHours(1));
    assertThat(keep).hasToString("keep for PT1H");
  }

  @Test
  void aWindowMustBePositive() {
    assertThatThrownBy(() -> Retention.keepFor(Duration.ZERO))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessage("retention must be a positive duration, but was PT0S");
    assertThatThrownBy(() -> Retention.keepFor(null)).isInstanceOf(OutboxConfigException.class);
  }
}
