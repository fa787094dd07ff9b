package dev.outboxrelay.daemon;

/**
 * Something the daemon needs at start-up is not there: a database or broker that does not answer,
 * credentials the database refuses, an HTTP port in use, missing outbox tables. Carries its own
 * exit code (see {@link OutboxRelayDaemon}) so that an orchestrator can tell a retry-worthy outage
 * from a fix-the-deployment problem. The message never holds a secret value.
 */
final class StartupFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What failed, each with its exit code. */
  enum Kind {
    UNAVAILABLE(OutboxRelayDaemon.EXIT_UNAVAILABLE, "Unavailable: "),
    AUTHENTICATION(OutboxRelayDaemon.EXIT_AUTHENTICATION, "Authentication failed: "),
    PORT_IN_USE(OutboxRelayDaemon.EXIT_PORT_IN_USE, "Cannot listen: "),
    SCHEMA_MISSING(OutboxRelayDaemon.EXIT_SCHEMA_MISSING, "Schema missing: ");

    final int exitCode;
    final String prefix;

    Kind(int exitCode, String prefix) {
      this.exitCode = exitCode;
      this.prefix = prefix;
    }
  }

  private final Kind kind;

  StartupFailure(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  Kind kind() {
    return kind;
  }
}
