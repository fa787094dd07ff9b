package dev.outboxrelay.relay.engine;

/** What a published round means for the relay as a whole, beyond its keys. */
public enum PublishOutcome {
  /**
   * The broker answered: something was acknowledged or refused for good; keys that failed
   * transiently back off on their own.
   */
  PROGRESS,
  /**
   * Nothing acknowledged, nothing refused, every message failed transiently: the broker looks
   * unavailable, and the relay backs off as a whole.
   */
  OUTAGE
}
