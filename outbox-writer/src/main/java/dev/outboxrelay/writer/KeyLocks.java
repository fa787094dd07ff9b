package dev.outboxrelay.writer;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Locale;
import java.util.TreeSet;
import java.util.zip.CRC32;

/**
 * The writer's per-key locks (key order): held until the caller's transaction ends, so that
 * transactions writing the same aggregateid serialize from their save to their commit, and a key's
 * {@code seq} increases in commit order. PostgreSQL takes a transaction-scoped advisory lock inside
 * each insert statement ({@link #lockingInsert}); MySQL and MariaDB, which have no
 * transaction-scoped advisory lock, upsert one row per key slot of the {@code <table>_key_lock}
 * table, whose exclusive row lock InnoDB holds to commit even when the row does not change.
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
   * PostgreSQL: the insert with its lock in the same statement. The CTE is volatile, so it is not
   * inlined and runs before the SELECT yields the row whose identity {@code seq} is drawn ({@code
   * KeyOrderContract.aBlockedWriterDrawsItsSeqAfterTheLockHolderCommits} checks it).
   */
  String lockingInsert(String columns, int values) {
    return "WITH l AS (SELECT pg_advisory_xact_lock("
        + namespace
        + ", hashtext(?))) INSERT INTO "
        + table.qualifiedName(SqlDialect.POSTGRESQL)
        + " ("
        + columns
        + ") SELECT "
        + "?, ".repeat(values - 1)
        + "? FROM l";
  }

  /**
   * Locks every key of one {@code saveAll} up front in ascending lock order, so two transactions
   * saving the same keys in different orders cannot deadlock on each other. Only PostgreSQL with
   * several keys, and MySQL/MariaDB always (their insert has no lock of its own).
   */
  void lockAll(Connection c, SqlDialect dialect, Collection<OutboxMessage> messages)
      throws SQLException {
    if (dialect == SqlDialect.POSTGRESQL) {
      String[] keys =
          messages.stream().map(OutboxMessage::aggregateId).distinct().toArray(String[]::new);
      if (keys.length > 1) {
        lockPostgres(c, keys);
      }
      return;
    }
    TreeSet<Integer> slots = new TreeSet<>();
    messages.forEach(m -> slots.add(slot(m.aggregateId())));
    String sql =
        dialect.upsert(
            table.qualifiedCompanion(dialect, "key_lock"),
            "(slot) VALUES " + "(?), ".repeat(slots.size() - 1) + "(?)",
            "slot",
            "slot = " + dialect.upsertExisting("slot"));
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      int i = 1;
      for (int slot : slots) {
        ps.setInt(i++, slot);
      }
      ps.executeUpdate();
    }
  }

  private void lockPostgres(Connection c, String[] keys) throws SQLException {
    String sql =
        "SELECT pg_advisory_xact_lock("
            + namespace
            + ", h) FROM (SELECT DISTINCT hashtext(k) AS h FROM unnest(?::text[]) AS k ORDER BY 1) s";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setArray(1, c.createArrayOf("text", keys));
      ps.executeQuery().close();
    }
  }

  /** The lock-table slot of a key: CRC-32 of its UTF-8 bytes, low 16 bits. */
  static int slot(String key) {
    CRC32 crc = new CRC32();
    crc.update(key.getBytes(StandardCharsets.UTF_8));
    return (int) (crc.getValue() & (SLOTS - 1));
  }
}
