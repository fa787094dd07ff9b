package dev.outboxrelay.core;

/**
 * A setting has an invalid value. The message names the setting and the value, except for settings
 * whose name looks like a secret, whose value is masked (see {@link Secrets}).
 */
public class OutboxConfigException extends OutboxException {
  private static final long serialVersionUID = 1L;
  private final String key;

  public OutboxConfigException(String key, Object value, String requirement) {
    super(key + " " + requirement + ", but was " + Secrets.maskIfSecret(key, value));
    this.key = key;
  }

  /**
   * A setting is wrong in a way that must not repeat its value (an unknown key may be a misspelled
   * secret): the message is the key followed by the problem.
   */
  public OutboxConfigException(String key, String problem) {
    super(key + " " + problem);
    this.key = key;
  }

  /** The name of the invalid setting. */
  public String key() {
    return key;
  }
}
