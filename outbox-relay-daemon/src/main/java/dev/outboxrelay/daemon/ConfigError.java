package dev.outboxrelay.daemon;

/**
 * A configuration error found while wiring (a publisher or driver refused a setting), already
 * phrased with the config key path. The message never holds a secret value.
 */
final class ConfigError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  ConfigError(String message, Throwable cause) {
    super(message, cause);
  }
}
