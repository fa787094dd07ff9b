package dev.outboxrelay.daemon.logging;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * Logback layout that formats as {@link PatternLayout} and then masks registered secrets, in the
 * message, the arguments and the stack trace alike (configured in the daemon's {@code
 * logback.xml}).
 */
public final class MaskingPatternLayout extends PatternLayout {
  @Override
  public String doLayout(ILoggingEvent event) {
    return SecretMask.mask(super.doLayout(event));
  }
}
