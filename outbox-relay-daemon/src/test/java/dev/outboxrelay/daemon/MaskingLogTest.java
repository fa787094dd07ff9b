package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import dev.outboxrelay.daemon.logging.MaskingPatternLayout;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class MaskingLogTest {

  @Test
  void valuesOfSecretKeysAreMaskedInMessageArgumentsAndStackTrace() {
    String line =
        layout(
            "connecting to {} with password={}",
            new IllegalStateException("refused jdbc:postgresql://db/app?password=canary-Zq82"),
            "jdbc:postgresql://db/app?user=outbox&password=canary-Zq81",
            "canary-Zq83");
    assertThat(line)
        .doesNotContain("canary-Zq8")
        .contains("connecting to jdbc:postgresql://db/app?user=outbox&password=****** with")
        .contains("password=******")
        .contains("refused jdbc:postgresql://db/app?password=******");
  }

  @Test
  void aSecretValueElsewhereInTheLineIsNotSearchedForSoTheLineStaysReadable() {
    // The demo's password is 'outbox': a substitution mask turned this into 'dev.******relay'.
    assertThat(layout("started dev.outboxrelay.daemon as user {}", null, "outbox"))
        .contains("started dev.outboxrelay.daemon as user outbox");
  }

  private static String layout(String message, Throwable error, Object... args) {
    LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
    MaskingPatternLayout layout = new MaskingPatternLayout();
    layout.setContext(ctx);
    layout.setPattern("%level %msg%n%ex");
    layout.start();
    Logger logger = ctx.getLogger("test");
    return layout.doLayout(
        new LoggingEvent(Logger.class.getName(), logger, Level.DEBUG, message, error, args));
  }
}
