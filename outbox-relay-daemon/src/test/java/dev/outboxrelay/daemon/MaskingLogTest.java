package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import dev.outboxrelay.daemon.logging.MaskingPatternLayout;
import dev.outboxrelay.daemon.logging.SecretMask;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class MaskingLogTest {

  @Test
  void aRegisteredSecretIsMaskedInMessageArgumentsAndStackTrace() {
    SecretMask.register(List.of("canary-Zq81", "canary-Zq81-longer"));
    LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
    MaskingPatternLayout layout = new MaskingPatternLayout();
    layout.setContext(ctx);
    layout.setPattern("%level %msg%n%ex");
    layout.start();
    Logger logger = ctx.getLogger("test");
    LoggingEvent event =
        new LoggingEvent(
            Logger.class.getName(),
            logger,
            Level.DEBUG,
            "connecting with password={} to {}",
            new IllegalStateException("auth failed for canary-Zq81-longer"),
            new Object[] {"canary-Zq81", "db"});
    String line = layout.doLayout(event);
    assertThat(line)
        .doesNotContain("canary-Zq81")
        .contains("password=****** to db")
        .contains("auth failed for ******");
  }

  @Test
  void unregisteredTextPassesUnchanged() {
    assertThat(SecretMask.mask("nothing secret here")).isEqualTo("nothing secret here");
  }
}
