package dev.outboxrelay.core;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Sends outbox messages to a broker: the SPI every publisher implements (Kafka, RocketMQ, a third
 * party's). Implementations must be thread-safe.
 *
 * <p>Contract, checked by the publisher contract suite in {@code outbox-testing}:
 *
 * <ul>
 *   <li>The stage completes only when every message of the batch has an outcome, and then with one
 *       {@link PublishResult} per message in the order given. It never completes exceptionally: a
 *       failure to attempt the batch is a failed result for every message.
 *   <li>A result is {@linkplain PublishResult#isAcknowledged() acknowledged} only after the broker
 *       acknowledged the message durably (for Kafka, {@code acks=all}).
 *   <li>Messages of one aggregateid are written in the given order; once one of them fails, no
 *       later message of the same aggregateid in the batch is acknowledged.
 *   <li>Broker key, headers and topic follow {@link MessageContract}.
 *   <li>Failures are typed: {@link RetriablePublishException} or {@link
 *       NonRetriablePublishException}.
 * </ul>
 */
public interface Publisher extends AutoCloseable {

  /** Publishes a batch asynchronously; see the class contract. */
  CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch);

  /**
   * Tells the publisher that its caller now waits for everything it published: what the client
   * still buffers to fill a larger request (Kafka's {@code linger.ms}) should go out now. Returns
   * at once; the results still arrive through the stages {@link #publish} returned. The CDC relay
   * calls it after each batch it then waits for. The default does nothing (a client that sends each
   * message at once).
   */
  default void sendBuffered() {}

  /**
   * Publishes copies to one fixed topic, the relay's dead-letter topic, under the same contract as
   * {@link #publish} (key, headers, order, typed failures) but ignoring the topic template. The
   * default fails every message non-retriably: a publisher that does not override it cannot
   * dead-letter (the relay counts and retries the failure, and the keys stay parked).
   */
  default CompletionStage<List<PublishResult>> publishTo(String topic, List<OutboxMessage> batch) {
    NonRetriablePublishException unsupported =
        new NonRetriablePublishException(
            getClass().getName() + " cannot publish to a fixed topic (" + topic + ")", null);
    return CompletableFuture.completedFuture(
        batch.stream().map(m -> PublishResult.failed(m, unsupported)).toList());
  }

  /**
   * Why {@link #publishTo} could never send to {@code topic} (a name the broker refuses), or empty
   * when it can or the publisher cannot tell. The relays ask at build time about their dead-letter
   * topic, so that a name no copy could ever reach fails the start, not every copy later.
   */
  default Optional<String> topicProblem(String topic) {
    return Optional.empty();
  }

  /** The topic {@link #publish} sends this message to, when the publisher can tell. */
  default Optional<String> topicOf(OutboxMessage message) {
    return Optional.empty();
  }

  /** Flushes what was accepted and releases the client. */
  @Override
  void close();
}
