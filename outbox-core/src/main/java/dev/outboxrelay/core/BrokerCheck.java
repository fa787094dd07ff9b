package dev.outboxrelay.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * A publisher's reader of its broker, offered by {@link PublisherFactory#brokerCheck}: which
 * published messages the broker holds ({@code verify} and the reconciliation loop ask it), and
 * whether the broker answers (start-up and readiness ask it). Implementations must be thread-safe.
 *
 * <p>Contract, checked on each shipped broker by the daemon's {@code ReconcileContract} and on a
 * third party's jar by its {@code PluginPublisherIT}:
 *
 * <ul>
 *   <li>{@link #present} returns only ids of messages it was given, and only of those the broker
 *       holds in the topic they are grouped under.
 *   <li>{@link #present} finds every such message stored at or after {@code from}; a message stored
 *       earlier may or may not be found.
 *   <li>{@link #present} throws when the broker cannot be read, whole or in part: a failed check
 *       never reports a message as missing, so it never returns a partial answer.
 *   <li>{@link #topics} is the template the publisher built from the same settings sends with.
 *   <li>{@link #probe} sends nothing and returns within about {@code timeout}; it never throws for
 *       a broker that is down.
 *   <li>Creating a check opens no connection and starts no thread; {@link #close} releases what the
 *       calls opened.
 * </ul>
 */
public interface BrokerCheck extends AutoCloseable {

  /** The topic template of the publisher made from the same settings. */
  TopicTemplate topics();

  /**
   * The ids of {@code byTopic}'s messages found on the broker; see the class contract.
   *
   * @param byTopic the messages to look for, by the topic {@link #topics} gives them
   * @param from the earliest time any of them can have been stored
   * @param progress receives a line now and then on long checks
   * @throws OutboxException when the broker cannot be read
   */
  Set<UUID> present(
      Map<String, List<OutboxMessage>> byTopic, Instant from, Consumer<String> progress);

  /**
   * Asks the broker whether it answers, within {@code timeout}, without sending a message. Default:
   * {@link Probe#notAsked()}: the relay is then judged by its publish outcomes only.
   */
  default Probe probe(Duration timeout) {
    return Probe.notAsked();
  }

  /** What {@link #probe} asks, for messages, e.g. {@code kafka bootstrap.servers host:9092}. */
  default String target() {
    return getClass().getSimpleName();
  }

  /** Releases the clients this check opened; the default has none. */
  @Override
  default void close() {}

  /**
   * What a {@link #probe} found.
   *
   * @param outcome whether the broker answered
   * @param reason why not, for {@code NO_ANSWER} and {@code REFUSED}; empty otherwise
   */
  record Probe(Outcome outcome, String reason) {

    /** A probe's outcome. */
    public enum Outcome {
      /** The broker answered. */
      ANSWERED,
      /** This check has no probe; nothing was asked. */
      NOT_ASKED,
      /** No answer (down, starting, unreachable): an outage to wait out. */
      NO_ANSWER,
      /** The broker refused the credentials or the TLS handshake: waiting will not help. */
      REFUSED
    }

    public static Probe answered() {
      return new Probe(Outcome.ANSWERED, "");
    }

    public static Probe notAsked() {
      return new Probe(Outcome.NOT_ASKED, "");
    }

    public static Probe noAnswer(String reason) {
      return new Probe(Outcome.NO_ANSWER, reason);
    }

    public static Probe refused(String reason) {
      return new Probe(Outcome.REFUSED, reason);
    }
  }
}
