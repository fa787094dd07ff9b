package dev.outboxrelay.relay.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OutboxEventsTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "2026-12-03T12:27:33Z",
        "2026-12-03T12:27:33.1Z",
        "2026-12-03T12:27:33.123456Z",
        "2026-12-03T12:27:33.123456789Z",
        "1970-01-01T00:00:00Z",
        "2024-02-29T23:59:59.999999Z",
        "2026-12-03T12:27:33.123456+02:00",
        "2026-12-03T12:27:33+01:00"
      })
  void readsTimestampsAsTheIsoParserDoes(String s) {
    assertThat(OutboxEvents.instant(s)).isEqualTo(OffsetDateTime.parse(s).toInstant());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "2026-02-30T12:27:33Z",
        "2026-12-03T25:27:33Z",
        "2026-12-03T12:27:3Z",
        "2026-12-03T12:27:33.1234567890Z"
      })
  void refusesWhatTheIsoParserRefuses(String s) {
    assertThatThrownBy(() -> OutboxEvents.instant(s)).isInstanceOf(DateTimeParseException.class);
  }
}
