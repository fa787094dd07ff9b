package dev.outboxrelay.relay.polling;

import static dev.outboxrelay.core.Jdbc.params;

import dev.outboxrelay.core.Jdbc;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.rows.PendingRow;
import dev.outboxrelay.core.rows.PublishedRows;
import dev.outboxrelay.core.rows.RowsByKey;
import dev.outboxrelay.relay.engine.TableStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import javax.sql.DataSource;

/** The relay's statements against the outbox table; each runs in its own auto-commit unit. */
final class RelayStore {
  private final TableStore table;
  private final RelaySql sql;
  private final String owner;
  private final boolean keepRows;
  private final boolean strict;

  /**
   * Strict order: the sequence prefix being published, {@code seq <= horizonSeq}, and the
   * transaction id taken right after reading it; the prefix is final once every transaction older
   * than {@code horizonXid} has ended. Used by the worker thread only.
   */
  private long horizonSeq;

  private long horizonXid = -1;

  RelayStore(DataSource dataSource, RelaySql sql, String owner, boolean keepRows, boolean strict) {
    this.table = new TableStore(dataSource, sql.state, keepRows);
    this.sql = sql;
    this.owner = owner;
    this.keepRows = keepRows;
    this.strict = strict;
  }

  /**
   * Up to {@code limit} pending rows of the buckets, oldest first, except the excluded keys' and
   * sequence values; malformed rows included.
   *
   * <p>Strict order (PostgreSQL): rows are published by sequence prefixes. The relay reads the
   * highest committed {@code seq} S, then takes a transaction id N ({@code txid_current()} in its
   * own, immediately committed transaction). Every transaction that drew a sequence value up to S
   * did so before S was drawn and committed, so it already had a transaction id below N (it wrote
   * before). Once the oldest running transaction is newer than N, no row with {@code seq <= S} can
   * still appear: the prefix is final and goes out in {@code seq} order, i.e. insertion order per
   * key even when transactions commit in the opposite order. Until then the claim returns nothing.
   */
  List<PendingRow> claim(
      List<Integer> buckets, List<String> excludedKeys, List<Long> excludedSequences, int limit)
      throws SQLException {
    List<PendingRow> rows;
    try (Connection c = connection()) {
      if (strict && !prefixSettled(c)) {
        return new ArrayList<>();
      }
      String statement =
          sql.claim(
              buckets.size(), excludedKeys.size(), excludedSequences.size(), strict, keepRows);
      Object[] values =
          Stream.of(
                  buckets,
                  excludedKeys,
                  excludedSequences,
                  strict ? List.of(horizonSeq) : List.of(),
                  List.of(limit))
              .flatMap(List::stream)
              .toArray();
      rows = Jdbc.query(c, statement, params(values), PendingRow::read);
    }
    if (strict && rows.size() < limit) {
      horizonXid = -1; // this prefix is drained: the next claim starts a new one
    }
    return rows;
  }

  /** Strict order: starts a prefix if none is open; true once the open one is final. */
  private boolean prefixSettled(Connection c) throws SQLException {
    if (horizonXid < 0) {
      horizonSeq = single(c, sql.maxSequence());
      horizonXid = single(c, "SELECT txid_current()");
    }
    return single(c, "SELECT txid_snapshot_xmin(txid_current_snapshot())") > horizonXid;
  }

  private static long single(Connection c, String query) throws SQLException {
    return Jdbc.query(c, query, params(), rs -> rs.getLong(1)).get(0);
  }

  /** Marks acknowledged rows done; returns how many the lease fence let through. */
  int markDone(List<PendingRow> rows) throws SQLException {
    if (rows.isEmpty()) {
      return 0;
    }
    try (Connection c = connection()) {
      return sql.dialect == SqlDialect.POSTGRESQL ? markFenced(c, rows) : markHeld(c, rows);
    }
  }

  /**
   * PostgreSQL: one statement ({@link RelaySql#markDone}); returns the rows the fence let through,
   * counted as on MySQL/MariaDB: a row of a bucket this relay holds counts as done even if it was
   * already gone. Rows are gone when a mark whose commit reached the database lost its answer (a
   * dropped connection) and is tried again; counting them as refused told operators a lease was
   * lost when none was. So when the statement marks fewer rows than it was given, the relay reads
   * which of them are still pending (refused by the fence, whatever the lease reads now: a renewal
   * may have committed since) and which of their buckets it holds: a row no longer pending counts
   * as done in a held bucket and as refused in another (a new owner sent and marked it).
   */
  private int markFenced(Connection c, List<PendingRow> rows) throws SQLException {
    Long[] seqs = rows.stream().map(PendingRow::sequence).sorted().toArray(Long[]::new);
    java.sql.Array array = c.createArrayOf("bigint", seqs);
    int marked = Jdbc.update(c, sql.markDone(keepRows), params(array, owner));
    if (marked == rows.size()) {
      return marked;
    }
    Set<Long> pending =
        new HashSet<>(
            Jdbc.query(c, sql.stillPending(keepRows), params(array), rs -> rs.getLong(1)));
    Set<Integer> held = heldBuckets(c, rows);
    return (int)
        rows.stream()
            .filter(r -> !pending.contains(r.sequence()) && held.contains(r.bucket()))
            .count();
  }

  /**
   * MySQL/MariaDB: reads which buckets this relay still holds, then marks the rows of those by
   * their primary key, one statement ({@link RowsByKey#mark}: a lookup per row, in ascending key
   * order, so two relays marking at once lock rows in the same order and cannot deadlock). Nothing
   * here locks a lease or a row that is not marked, so a mark never queues behind a writer's
   * uncommitted insert and never holds up the lease renewal.
   *
   * <p>The fence read is not a locking read, and need not be. What the fence guarantees: a relay
   * that lost a bucket has its marks of that bucket refused, learns it (onFenced, local leases
   * dropped) and publishes nothing more of it until it holds the lease again. A lock would only add
   * that no other relay takes the bucket between this read and the statement below; without it, the
   * new owner may claim a row this mark then deletes. That row was acknowledged by the broker
   * before this mark began (ack before done), so nothing is lost and no later row of its key can
   * overtake it: the new owner sends it again at worst, the duplicate that a lease lost in the
   * middle of a batch causes anyway.
   */
  private int markHeld(Connection c, List<PendingRow> rows) throws SQLException {
    Set<Integer> held = heldBuckets(c, rows);
    List<PendingRow> marked = rows.stream().filter(r -> held.contains(r.bucket())).toList();
    if (marked.isEmpty()) {
      return 0;
    }
    RowsByKey byKey = table.rowKeys(c);
    String json = byKey.json(marked, PendingRow::id, PendingRow::sequence);
    Jdbc.update(c, byKey.mark(keepRows), params(json));
    return marked.size(); // the rows the fence let through (a row already gone counts as done)
  }

  private Set<Integer> heldBuckets(Connection c, List<PendingRow> rows) throws SQLException {
    List<Integer> buckets = rows.stream().map(PendingRow::bucket).distinct().toList();
    Object[] values = Stream.concat(buckets.stream(), Stream.of(owner)).toArray();
    String statement = sql.heldBuckets(buckets.size());
    return new HashSet<>(Jdbc.query(c, statement, params(values), rs -> rs.getInt(1)));
  }

  /** Parks a key; false if the fence refused it (lease lost). */
  boolean park(PendingRow row, String reason) throws SQLException {
    return table.park(sql.state.parkWhileLeased(), row, reason, row.bucket(), owner);
  }

  /**
   * Deletes published rows older than the window, at most {@code limit}; returns the count ({@link
   * PublishedRows#purge}).
   */
  int purgePublished(Duration window, int limit) throws SQLException {
    return table.purge(window, limit);
  }

  private Connection connection() throws SQLException {
    return table.connection();
  }
}
