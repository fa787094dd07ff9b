package dev.outboxrelay.core;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Default message ids: time-ordered UUIDs of version 7 (RFC 9562), so the outbox's primary key and
 * the consumers' dedup tables receive them in about ascending order and append to their b-trees
 * instead of touching a random page per insert.
 *
 * <p>Layout (RFC 9562 §5.7 with §6.2 method 1): 48 bits of Unix milliseconds, version 7, a 12-bit
 * counter within the millisecond ({@code rand_a}), variant 2, and 62 random bits from a {@link
 * SecureRandom} ({@code rand_b}), as many random bits as a version-4 UUID has per millisecond and
 * counter value. In one JVM the ids strictly increase (as unsigned 128-bit numbers and as strings):
 * the counter runs on when the clock stands still or steps back, and carries into the millisecond
 * after 4096 ids in one millisecond (the id's time then runs slightly ahead of the clock).
 */
public final class MessageIds {
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Last (millisecond << 12 | counter) handed out. */
  private static final AtomicLong LAST = new AtomicLong();

  private MessageIds() {}

  /** A new version-7 UUID, greater than every id this JVM made before. */
  public static UUID next() {
    long candidate = System.currentTimeMillis() << 12;
    long stamp = LAST.updateAndGet(last -> Math.max(candidate, last + 1));
    long millis = stamp >>> 12;
    long counter = stamp & 0xFFF;
    long msb = (millis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | counter;
    long lsb = RANDOM.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L;
    return new UUID(msb, lsb);
  }
}
