package dev.outboxrelay.relay.cdc.internal.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class EngineSilenceTest {
  private static final long SECOND = Duration.ofSeconds(1).toNanos();

  private static Properties engine(String... keyValues) {
    Properties p = new Properties();
    p.setProperty("heartbeat.interval.ms", "1000"); // as EngineProperties sets it
    for (int i = 0; i < keyValues.length; i += 2) {
      p.setProperty(keyValues[i], keyValues[i + 1]);
    }
    return p;
  }

  @Test
  void theLimitIsFifteenHeartbeatsAndAtLeastFifteenSeconds() {
    assertThat(EngineSilence.limit(engine(), false)).isEqualTo(Duration.ofSeconds(15));
    assertThat(EngineSilence.limit(engine("heartbeat.interval.ms", "200"), false))
        .isEqualTo(Duration.ofSeconds(15));
    assertThat(EngineSilence.limit(engine("heartbeat.interval.ms", "5000"), false))
        .isEqualTo(Duration.ofSeconds(75));
  }

  /** An idle PostgreSQL connector sleeps a poll interval after five empty reads. */
  @Test
  void aLongPollIntervalSpacesTheHeartbeats() {
    assertThat(EngineSilence.limit(engine("poll.interval.ms", "2000"), false))
        .isEqualTo(Duration.ofSeconds(30));
  }

  /** On an idle binlog the heartbeats come with the server's, every 0.8 × the keep-alive. */
  @Test
  void aBinlogsHeartbeatsComeWithTheServersEvents() {
    assertThat(EngineSilence.limit(engine("connect.keep.alive.interval.ms", "2500"), true))
        .isEqualTo(Duration.ofSeconds(30));
    assertThat(EngineSilence.limit(engine(), true)).isEqualTo(Duration.ofSeconds(720));
  }

  /** Debezium refuses such a setting at start, naming it; the relay does not fail before it. */
  @Test
  void aSettingThatIsNotANumberIsLeftToDebezium() {
    assertThat(EngineSilence.limit(engine("poll.interval.ms", "soon"), false))
        .isEqualTo(Duration.ofSeconds(15));
    assertThat(EngineSilence.limit(engine("heartbeat.interval.ms", "often"), false)).isNull();
  }

  @Test
  void withoutHeartbeatsNothingIsWatched() {
    assertThat(EngineSilence.limit(engine("heartbeat.interval.ms", "0"), false)).isNull();
    assertThat(EngineSilence.limit(engine("connect.keep.alive", "false"), true)).isNull();
    EngineSilence off = new EngineSilence(engine("heartbeat.interval.ms", "0"), false);
    off.batchStarted();
    off.batchEnded();
    assertThat(off.beyondLimit(System.nanoTime() + 3600 * SECOND)).isEmpty();
  }

  @Test
  void silenceCountsFromTheEndOfTheLastBatchAndNotWhileOneIsHandled() {
    EngineSilence s = new EngineSilence(engine(), false);
    long now = System.nanoTime();
    assertThat(s.beyondLimit(now + 60 * SECOND)).as("before the first batch").isEmpty();
    s.batchStarted();
    assertThat(s.beyondLimit(now + 60 * SECOND)).as("the first batch handled").isEmpty();
    s.batchEnded();
    assertThat(s.beyondLimit(System.nanoTime() + 14 * SECOND)).isEmpty();
    assertThat(s.beyondLimit(System.nanoTime() + 16 * SECOND)).isPresent();
    s.batchStarted();
    assertThat(s.beyondLimit(System.nanoTime() + 60 * SECOND))
        .as("a batch held up by the relay itself (a slow broker)")
        .isEmpty();
    s.batchEnded();
    s.restarted();
    assertThat(s.beyondLimit(System.nanoTime() + 60 * SECOND)).as("restarted").isEmpty();
  }
}
