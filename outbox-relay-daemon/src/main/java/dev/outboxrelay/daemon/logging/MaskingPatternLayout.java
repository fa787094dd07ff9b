package dev.outboxrelay.daemon.logging;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.outboxrelay.core.Secrets;

/**
 * Logback layout that formats as {@link PatternLayout} and then masks, by key, every value that
 * follows a secret-looking name ({@code password=…}, {@code sasl.jaas.config = …}, a URL's {@code
 * password} parameter or user-info password), in the message, the arguments and the stack trace
 * alike (configured in the daemon's {@code logback.xml}). Nothing is masked by searching for a
 * secret's value, so lines that merely contain the same text stay readable.
 */
public final class MaskingPatternLayout extends PatternLayout {
  @Override
  public String doLayout(ILoggingEvent event) {
    return Secrets.maskText(super.doLayout(event));
  }
}
