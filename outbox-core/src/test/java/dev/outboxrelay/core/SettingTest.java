package dev.outboxrelay.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SettingTest {
  private static final Setting<Integer> SIZE = Setting.integer("batch-size", 500, 1, 10, "rows");
  private static final Setting<Duration> WAIT =
      Setting.duration("poll-interval", Duration.ofMillis(250), Duration.ofMillis(5), "idle");

  @Test
  void buildersNameTheSettingInCamelCaseAndCallersByTheirOwnSpelling() {
    assertThat(SIZE.javaName()).isEqualTo("batchSize");
    assertThatThrownBy(() -> SIZE.check(0))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessage("batchSize must be between 1 and 10, but was 0");
    assertThatThrownBy(() -> WAIT.check("relays[0].poll-interval", Duration.ofMillis(1)))
        .hasMessage("relays[0].poll-interval must be at least PT0.005S, but was PT0.001S");
    assertThatThrownBy(() -> SIZE.check(null)).hasMessage("batchSize is required, but was null");
  }

  @Test
  void textIsParsedAsTheTypeThenChecked() {
    assertThat(SIZE.parse("k", " 7 ")).isEqualTo(7);
    assertThat(WAIT.parse("k", "2s")).isEqualTo(Duration.ofSeconds(2));
    assertThat(WAIT.parse("k", "PT1M")).isEqualTo(Duration.ofMinutes(1));
    assertThat(Setting.bool("on", false, "d").parse("k", "yes")).isTrue();
    assertThatThrownBy(() -> SIZE.parse("k", "lots"))
        .hasMessage("k must be a whole number from 1 to 10, but was 'lots'");
    assertThatThrownBy(() -> SIZE.parse("k", "11"))
        .hasMessage("k must be a whole number from 1 to 10, but was '11'");
    assertThatThrownBy(() -> WAIT.parse("k", "5 parsecs"))
        .hasMessageStartingWith("k must be a positive duration such as 200ms");
    assertThatThrownBy(() -> WAIT.parse("k", "1ms")).hasMessageStartingWith("k must be at least");
  }

  @Test
  void defaultsAreDocumentedInTheSpellingTheParserReadsBack() {
    assertThat(WAIT.defaultText()).isEqualTo("250ms");
    assertThat(WAIT.withDefault(Duration.ofSeconds(60)).defaultText()).isEqualTo("1m");
    assertThat(SIZE.defaultText()).isEqualTo("500");
    assertThat(WAIT.parse("k", WAIT.defaultText())).isEqualTo(WAIT.defaultValue());
  }

  @Test
  void secretValuesNeverReachAMessage() {
    Setting<String> token =
        Setting.text("token", null, t -> t.length() >= 16, "must be 16 or more", "t").secret();
    assertThatThrownBy(() -> token.check("http.token", "short-canary"))
        .hasMessageNotContaining("canary");
    assertThat(token.isSecret()).isTrue();
  }

  @Test
  void keysAreKebabCase() {
    assertThatThrownBy(() -> Setting.bool("pollInterval", true, "d"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
