/**
 * RocketMQ transactional messages written with the outbox row: {@link
 * dev.outboxrelay.rocketmqtx.RocketMqTransactionalOutbox} sends the half message, runs the caller's
 * local transaction and answers the broker's check-back from the outbox table.
 */
package dev.outboxrelay.rocketmqtx;
