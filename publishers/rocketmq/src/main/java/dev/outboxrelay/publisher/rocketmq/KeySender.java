package dev.outboxrelay.publisher.rocketmq;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.RetriablePublishException;
import dev.outboxrelay.core.TopicTemplate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the messages of one key in order, each to the key's queue, one at a time: the next is sent
 * only after the broker acknowledged the previous one. The client makes a single attempt for a send
 * with a queue selector, so this retries a failed send itself, on the same queue, up to {@code
 * maxAttempts} times with doubling, jittered delays. After a failure the key stops.
 */
final class KeySender {
  private static final Logger LOG = LoggerFactory.getLogger(KeySender.class);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(2);

  private final DefaultMQProducer producer;
  private final TopicTemplate topics;
  private final SendStatusPolicy policy;
  private final int maxAttempts;
  private final Duration backoff;

  KeySender(
      DefaultMQProducer producer,
      TopicTemplate topics,
      SendStatusPolicy policy,
      int maxAttempts,
      Duration backoff) {
    this.producer = producer;
    this.topics = topics;
    this.policy = policy;
    this.maxAttempts = maxAttempts;
    this.backoff = backoff;
  }

  /** The same sender with every message going to {@code topics} (the dead-letter topic). */
  KeySender withTopics(TopicTemplate topics) {
    return new KeySender(producer, topics, policy, maxAttempts, backoff);
  }

  /** The topic this sender sends the message to. */
  String topicFor(OutboxMessage m) {
    return topics.topicFor(m);
  }

  /**
   * One result per message, in order. {@code unreachable} is shared by the keys of a batch: once
   * the broker could not be reached, the remaining messages fail at once instead of each waiting.
   */
  List<PublishResult> send(List<OutboxMessage> ofOneKey, AtomicReference<PublishException> down) {
    List<PublishResult> results = new ArrayList<>(ofOneKey.size());
    PublishException stopped = null;
    for (OutboxMessage m : ofOneKey) {
      PublishException skip = stopped != null ? notSent(m, "an earlier message of its key") : null;
      if (skip == null && down.get() != null) {
        skip = notSent(m, "the broker was unreachable (" + down.get().getMessage() + ")");
      }
      PublishResult r = skip != null ? PublishResult.failed(m, skip) : sendWithRetries(m, down);
      stopped = r.failure().orElse(stopped);
      results.add(r);
    }
    return results;
  }

  private PublishResult sendWithRetries(OutboxMessage m, AtomicReference<PublishException> down) {
    Message msg;
    try {
      msg = RocketMqMessages.toMessage(m, topics);
    } catch (PublishException e) {
      return PublishResult.failed(m, e);
    }
    PublishException last = null;
    for (int attempt = 1; attempt <= maxAttempts; attempt++) {
      Throwable cause = null;
      try {
        last =
            policy.check(
                m,
                producer.send(
                    msg, KeyHashSelector.INSTANCE, m.aggregateId(), producer.getSendMsgTimeout()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return PublishResult.failed(m, new RetriablePublishException("interrupted", e));
      } catch (Exception e) {
        cause = e;
        last = RocketMqErrors.map(m, e);
      }
      if (last == null) {
        LOG.debug("Message {} acknowledged by RocketMQ", m.id());
        return PublishResult.acknowledged(m);
      }
      if (!last.isRetriable()) {
        return PublishResult.failed(m, last);
      }
      boolean unreachable = cause != null && RocketMqErrors.unreachable(cause);
      if (attempt == maxAttempts || (unreachable && down.get() != null) || !pause(attempt)) {
        if (unreachable) {
          down.compareAndSet(null, last);
        }
        break;
      }
      LOG.warn(
          "Message {} attempt {} of {} failed: {}",
          m.id(),
          attempt,
          maxAttempts,
          last.getMessage());
    }
    return PublishResult.failed(m, last);
  }

  /** Waits before the next attempt; false if interrupted. */
  private boolean pause(int attempt) {
    long max = Math.min(MAX_BACKOFF.toMillis(), backoff.toMillis() << Math.min(attempt - 1, 20));
    try {
      TimeUnit.MILLISECONDS.sleep(max / 2 + ThreadLocalRandom.current().nextLong(max / 2 + 1));
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static PublishException notSent(OutboxMessage m, String because) {
    return new RetriablePublishException(
        "not sent: message " + m.id() + " of key " + m.aggregateId() + " waits for " + because,
        null);
  }
}
