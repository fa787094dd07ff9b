package dev.outboxrelay.relay.cdc.internal.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class EngineSilenceTest {
  private final AtomicLong now = new AtomicLong();
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
    EngineSilence off = new EngineSilence(engine("heartbeat.interval.ms", "0"), false, now::get);
    off.batchStarted();
    off.batchEnded();
    now.addAndGet(3600 * SECOND);
    assertThat(off.beyondLimit()).isEmpty();
  }

  @Test
  void silenceCountsFromTheEndOfTheLastBatchAndNotWhileOneIsHandled() {
    EngineSilence s = new EngineSilence(engine(), false, now::get);
    now.addAndGet(60 * SECOND);
    assertThat(s.beyondLimit()).as("before the first batch").isEmpty();
    s.batchStarted();
    now.addAndGet(60 * SECOND);
    assertThat(s.beyondLimit()).as("the first batch handled").isEmpty();
    s.batchEnded();
    now.addAndGet(14 * SECOND);
    assertThat(s.beyondLimit()).isEmpty();
    now.addAndGet(2 * SECOND);
    assertThat(s.beyondLimit()).isPresent();
    s.batchStarted();
    now.addAndGet(60 * SECOND);
    assertThat(s.beyondLimit()).as("a batch held up by the relay itself (a slow broker)").isEmpty();
    s.batchEnded();
    s.restarted();
    now.addAndGet(60 * SECOND);
    assertThat(s.beyondLimit()).as("restarted").isEmpty();
  }
}
