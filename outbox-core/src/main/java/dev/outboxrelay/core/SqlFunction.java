package dev.outboxrelay.core;

import java.sql.SQLException;

/**
 * A function that may throw {@link SQLException}: work on a connection, or on anything that runs
 * statements. Callers wrap the exception once, at their boundary (in {@link
 * OutboxDatabaseException}).
 *
 * @param <T> what the work is given, e.g. a {@link java.sql.Connection}
 * @param <R> its result
 */
@FunctionalInterface
public interface SqlFunction<T, R> {
  /** Runs the work. */
  R apply(T input) throws SQLException;
}
