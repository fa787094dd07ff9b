package dev.outboxrelay.writer;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Locale;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.zip.CRC32;

/**
 * The writer's per-key locks (key order): held until the caller's transaction ends, so that
 * transactions writing the same aggregateid serialize from their write to their commit, and a key's
 * {@code seq} increases in commit order. Every batch takes all its locks in ascending lock order,
 * before its first row draws a {@code seq} and in the same round trip as its inserts, so two
 * batches over the same keys cannot deadlock on each other. PostgreSQL takes transaction-scoped
 * advisory locks inside the first insert statement ({@link #lockingInsert}); MySQL and MariaDB,
 * which have no transaction-scoped advisory lock, upsert one row per key slot of the {@code
 * <table>_key_lock} table ({@link #slotLock}), whose exclusive row lock InnoDB holds to commit even
 * when the row does not change.
 */
final class KeyLocks {
  /** Key slots of the MySQL lock table: a collision only makes two keys wait for each other. */
  static final int SLOTS = 1 << 16;

  private final OutboxTable table;
  private final int namespace;

  KeyLocks(OutboxTable table) {
    this.table = table;
    // One namespace per table name, so outbox tables of other names do not share advisory locks.
    // The name alone, lower-cased, not the qualified name: writers that spell one physical table
    // differently ("public.outbox" and "outbox" on the search path) must take the same locks, or
    // their same-key transactions would not serialize. Equal names in two schemas share locks,
    // which only makes their same-key writers wait for each other.
    this.namespace = ("outbox-relay:" + table.name().toLowerCase(Locale.ROOT)).hashCode();
  }

  /**
   * PostgreSQL: the insert with the locks in the same statement. {@code manyKeys}: the first
   * parameter is a {@code text[]} of keys, locked in ascending hash order; the first row of a batch
   * passes every key of the batch ({@link #keys}), the others none, so one pipelined batch locks,
   * then inserts. Otherwise the first parameter is the row's own key (a batch of one key; the lock
   * is re-entrant). The CTE is volatile, so it is not inlined and runs before the SELECT yields the
   * row whose identity {@code seq} is drawn ({@code
   * KeyOrderContract.aBlockedWriterDrawsItsSeqAfterTheLockHolderCommits} checks it).
   */
  String lockingInsert(String columns, int values, boolean manyKeys) {
    String lock =
        manyKeys
            ? "count(pg_advisory_xact_lock("
                + namespace
                + ", h)) FROM (SELECT DISTINCT hashtext(k) AS h FROM unnest(?::text[]) AS k"
                + " ORDER BY 1) s"
            : "pg_advisory_xact_lock(" + namespace + ", hashtext(?))";
    return "WITH l AS (SELECT "
        + lock
        + ") INSERT INTO "
        + table.qualifiedName(SqlDialect.POSTGRESQL)
        + " ("
        + columns
        + ") SELECT "
        + "?, ".repeat(values - 1)
        + "? FROM l";
  }

  /**
   * The distinct keys of a batch when there are several, else null (a batch of one key locks it row
   * by row).
   */
  static String[] keys(Collection<OutboxMessage> batch) {
    String[] keys =
        batch.stream().map(OutboxMessage::aggregateId).distinct().toArray(String[]::new);
    return keys.length > 1 ? keys : null;
  }

  /**
   * MySQL/MariaDB: one upsert of every key slot of the batch, ascending. The slots are numbers this
   * class computed, so they are written as literals and the statement can join the inserts' batch.
   */
  String slotLock(SqlDialect dialect, Collection<OutboxMessage> messages) {
    TreeSet<Integer> slots = new TreeSet<>();
    messages.forEach(m -> slots.add(slot(m.aggregateId())));
    return dialect.upsert(
        table.qualifiedCompanion(dialect, "key_lock"),
        "(slot) VALUES " + slots.stream().map(s -> "(" + s + ")").collect(Collectors.joining(", ")),
        "slot",
        "slot = " + dialect.upsertExisting("slot"));
  }

  /** The lock-table slot of a key: CRC-32 of its UTF-8 bytes, low 16 bits. */
  static int slot(String key) {
    CRC32 crc = new CRC32();
    crc.update(key.getBytes(StandardCharsets.UTF_8));
    return (int) (crc.getValue() & (SLOTS - 1));
  }
}
