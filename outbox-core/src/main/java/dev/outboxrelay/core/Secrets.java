package dev.outboxrelay.core;

import java.util.regex.Pattern;

/** Masks values of settings whose names look like secrets, for logs and error messages. */
public final class Secrets {
  private static final Pattern SECRET_KEY =
      Pattern.compile(
          "(?i).*(password|passwd|secret|token|credential|sasl\\.jaas\\.config|api[._-]?key"
              + "|private[._-]?key|access[._-]?key|keystore|truststore\\.password).*");
  private static final String MASK = "******";

  private Secrets() {}

  /** Whether a setting with this name holds a secret. */
  public static boolean isSecretKey(String key) {
    return key != null && SECRET_KEY.matcher(key).matches();
  }

  /** The value as text, or a fixed mask when the key names a secret. */
  public static String maskIfSecret(String key, Object value) {
    if (isSecretKey(key)) {
      return MASK;
    }
    return value instanceof String ? "'" + value + "'" : String.valueOf(value);
  }
}
