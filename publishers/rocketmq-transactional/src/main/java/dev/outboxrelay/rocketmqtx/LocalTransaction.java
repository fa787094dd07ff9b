package dev.outboxrelay.rocketmqtx;

import java.sql.Connection;

/**
 * The caller's business work, run on the connection of the local transaction after the half message
 * was stored. The connection is in a transaction (auto-commit off) that already holds the outbox
 * row; do not commit, roll back or close it: {@link RocketMqTransactionalOutbox#send} does. Throw
 * to roll the transaction, and so the message, back.
 */
@FunctionalInterface
public interface LocalTransaction {
  void execute(Connection connection) throws Exception;
}
