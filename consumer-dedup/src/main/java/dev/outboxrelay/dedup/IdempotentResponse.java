package dev.outboxrelay.dedup;

/**
 * The response of an idempotent request.
 *
 * @param body the response bytes the work returned (empty if it returned {@code null})
 * @param replayed {@code true} if cached from an earlier execution, {@code false} if the work just
 *     ran
 */
public record IdempotentResponse(byte[] body, boolean replayed) {}
