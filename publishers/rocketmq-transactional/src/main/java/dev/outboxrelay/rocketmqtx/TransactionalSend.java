package dev.outboxrelay.rocketmqtx;

import java.util.UUID;
import org.apache.rocketmq.client.producer.LocalTransactionState;

/**
 * A message whose local transaction committed.
 *
 * @param id the outbox message id (the row's primary key, the broker message's keys)
 * @param brokerMessageId the broker's id of the half message (its unique client key)
 * @param answer what the producer told the broker after the commit: {@code COMMIT_MESSAGE}, or
 *     {@code UNKNOW} if the answer could not be given (a {@link TransactionalOutboxListener}
 *     threw), in which case the broker's check-back commits it from the table
 */
public record TransactionalSend(UUID id, String brokerMessageId, LocalTransactionState answer) {}
