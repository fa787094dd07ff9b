package dev.outboxrelay.daemon.logging;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The secret values of the running configuration (passwords, SASL and RocketMQ keys, tokens), and
 * the masking every log line and every error message printed by the daemon goes through. Values are
 * registered as soon as the configuration is parsed, before any component that could log them is
 * created.
 */
public final class SecretMask {
  public static final String MASK = "******";
  private static final List<String> SECRETS = new CopyOnWriteArrayList<>();

  private SecretMask() {}

  /** Adds secret values to mask from now on. */
  public static void register(Collection<String> secrets) {
    for (String s : secrets) {
      if (s != null && !s.isEmpty() && !SECRETS.contains(s)) {
        SECRETS.add(s);
      }
    }
    // Longest first, so that a secret containing another is masked whole.
    SECRETS.sort(Comparator.comparingInt(String::length).reversed());
  }

  /** The text with every registered secret value replaced by {@link #MASK}. */
  public static String mask(String text) {
    if (text == null || SECRETS.isEmpty()) {
      return text;
    }
    String out = text;
    for (String s : SECRETS) {
      if (out.contains(s)) {
        out = out.replace(s, MASK);
      }
    }
    return out;
  }
}
