/**
 * Reading and writing outbox rows: the columns a relay selects ({@link
 * dev.outboxrelay.core.rows.OutboxRows}), a pending row that may be malformed ({@link
 * dev.outboxrelay.core.rows.PendingRow}) and the {@code headers} column's JSON ({@link
 * dev.outboxrelay.core.rows.HeadersJson}). Public API for relays, the writer and operator tools
 * built on the table contract.
 */
package dev.outboxrelay.core.rows;
