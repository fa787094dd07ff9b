/**
 * A history of one correctness run and the checker that judges it: what the writers committed and
 * rolled back, what the broker holds, which handler effects were applied. In the manner of Jepsen's
 * Kafka checker: record everything during the run, decide afterwards.
 */
package dev.outboxrelay.testing.history;
