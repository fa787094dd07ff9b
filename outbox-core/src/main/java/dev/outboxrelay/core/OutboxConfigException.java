package dev.outboxrelay.core;

/**
 * A setting has an invalid value. The message names the setting and the value, except for settings
 * whose name looks like a secret, whose value is masked.
 */
public class OutboxConfigException extends OutboxException {
  private static final long serialVersionUID = 1L;
  private final String key;

  public OutboxConfigException(String key, Object value, String requirement) {
    super(key + " " + requirement + ", but was " + Secrets.maskIfSecret(key, value));
    this.key = key;
  }

  /** The name of the invalid setting. */
  public String key() {
    return key;
  }
}
