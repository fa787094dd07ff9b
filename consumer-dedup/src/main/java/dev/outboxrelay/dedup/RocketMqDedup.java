package dev.outboxrelay.dedup;

import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.dedup.internal.TracedMessage;
import java.util.List;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.common.message.MessageExt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RocketMQ push-consumer listeners with dedup: each message's handler and dedup record run in one
 * database transaction, and a message is acknowledged only after that transaction committed. The id
 * comes from the {@code id} user property, the key from the {@code aggregateid} user property (the
 * RocketMQ message's {@code keys} hold the message id, as the RocketMQ publisher sends it), the
 * sequence from the {@code seq} user property, the key-order promise from the {@code seq-order}
 * user property. Needs rocketmq-client on the classpath. Listeners are thread-safe. With
 * OpenTelemetry's API on the classpath each message's handler runs in a consumer span whose parent
 * is its {@code traceparent} property (README, "Trace context").
 */
public final class RocketMqDedup {
  private static final Logger LOG = LoggerFactory.getLogger(RocketMqDedup.class);

  private RocketMqDedup() {}

  /** The user property carrying the aggregateid (RocketMQ has no record key). */
  static final String AGGREGATE_ID_PROPERTY = "aggregateid";

  /**
   * The identity of a message of the outbox message contract.
   *
   * @throws dev.outboxrelay.core.InvalidMessageException if the {@code id} property is missing or
   *     the {@code seq} property is not a number
   */
  public static MessageIdentity identity(MessageExt message) {
    return new MessageIdentity(
        message.getUserProperty(MessageContract.HEADER_ID),
        message.getUserProperty(AGGREGATE_ID_PROPERTY),
        MessageIdentity.parseSequence(message.getUserProperty(MessageContract.HEADER_SEQUENCE)),
        MessageIdentity.parseKeyOrdered(
            message.getUserProperty(MessageContract.HEADER_SEQUENCE_ORDER)));
  }

  /** The message's topic, id and W3C trace properties, for its consumer span. */
  static TracedMessage traced(MessageExt message) {
    return new TracedMessage(
        "rocketmq",
        message.getTopic(),
        message.getUserProperty(MessageContract.HEADER_ID),
        message.getUserProperty(MessageContract.HEADER_TRACEPARENT),
        message.getUserProperty(MessageContract.HEADER_TRACESTATE));
  }

  /**
   * An orderly listener (per-queue order, so the high-water mark may be on). Each delivered batch
   * ({@code consumeMessageBatchMaxSize}, default 1) runs in one database transaction. On a failure
   * the messages before the failed one commit, and the listener returns {@code
   * SUSPEND_CURRENT_QUEUE_A_MOMENT}: the queue pauses for the consumer's {@code
   * suspendCurrentQueueTimeMillis} (default 1 s) and the whole batch is redelivered; its committed
   * messages are then skipped as duplicates.
   */
  public static MessageListenerOrderly orderly(Dedup dedup, DedupHandler<MessageExt> handler) {
    return orderlyBatch(dedup, DedupBatchHandler.each(handler));
  }

  /**
   * As {@link #orderly(Dedup, DedupHandler)} with a handler that takes the batch's new messages in
   * one call; throw {@link DedupBatchItemException} to name the failed one, else the batch is split
   * to find it.
   */
  public static MessageListenerOrderly orderlyBatch(
      Dedup dedup, DedupBatchHandler<MessageExt> handler) {
    BatchHandler<MessageExt> h =
        dedup.transactionalBatch(RocketMqDedup::identity, RocketMqDedup::traced, handler);
    return (messages, context) ->
        firstFailure(h, messages) < 0
            ? ConsumeOrderlyStatus.SUCCESS
            : ConsumeOrderlyStatus.SUSPEND_CURRENT_QUEUE_A_MOMENT;
  }

  /** A concurrent listener whose failed messages the broker redelivers on its own schedule. */
  public static MessageListenerConcurrently concurrently(
      Dedup dedup, DedupHandler<MessageExt> handler) {
    return concurrently(dedup, handler, 0);
  }

  /**
   * A concurrent listener. Each delivered batch runs in one database transaction; on a failure the
   * messages before the failed one commit and are acknowledged ({@code ackIndex}), the failed one
   * and the rest go back with {@code RECONSUME_LATER} semantics.
   *
   * @param delayLevelWhenNextConsume 0 = the broker's schedule (10 s, 30 s, 1 min, ...), 1–18 =
   *     that delay level of the broker (level 1 = 1 s by default)
   * @throws OutboxConfigException if the dedup has the high-water mark on (concurrent consumption
   *     reorders a key, so the mark would drop a message redelivered after a newer one), or the
   *     level is outside 0–18
   */
  public static MessageListenerConcurrently concurrently(
      Dedup dedup, DedupHandler<MessageExt> handler, int delayLevelWhenNextConsume) {
    if (dedup.highWaterMark()) {
      throw new OutboxConfigException(
          "highWaterMark", true, "must be false for a concurrent listener; use orderly");
    }
    if (delayLevelWhenNextConsume < 0 || delayLevelWhenNextConsume > 18) {
      throw new OutboxConfigException(
          "delayLevelWhenNextConsume", delayLevelWhenNextConsume, "must be between 0 and 18");
    }
    BatchHandler<MessageExt> h =
        dedup.transactionalBatch(
            RocketMqDedup::identity, RocketMqDedup::traced, DedupBatchHandler.each(handler));
    return (messages, context) -> {
      int failed = firstFailure(h, messages);
      if (failed < 0) {
        return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
      }
      context.setDelayLevelWhenNextConsume(delayLevelWhenNextConsume);
      context.setAckIndex(failed - 1);
      return failed == 0
          ? ConsumeConcurrentlyStatus.RECONSUME_LATER
          : ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
    };
  }

  /** Handles the batch in one transaction; the index of the failed message, or -1. */
  private static int firstFailure(BatchHandler<MessageExt> handler, List<MessageExt> messages) {
    BatchOutcome outcome = handler.handle(messages);
    if (outcome.complete()) {
      return -1;
    }
    MessageExt m = messages.get(outcome.committed());
    LOG.warn(
        "Message {} (broker id {}, reconsume {}) failed, redelivering: {}",
        m.getUserProperty(MessageContract.HEADER_ID),
        m.getMsgId(),
        m.getReconsumeTimes(),
        outcome.failure().toString());
    return outcome.committed();
  }
}
