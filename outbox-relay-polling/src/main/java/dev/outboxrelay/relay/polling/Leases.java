package dev.outboxrelay.relay.polling;

import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlBatch;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This relay's key-bucket leases. Expiry is decided on the database clock; locally we only keep a
 * conservative deadline (monotonic clock) after which we stop using the leases until renewed.
 * {@link #renew} may run on another thread than {@link #rebalance} and {@link #release}.
 */
final class Leases {
  private static final Logger log = LoggerFactory.getLogger(Leases.class);

  private final DataSource dataSource;
  private final RelaySql sql;
  private final String owner;
  private final String name;
  private final long ttlMillis;
  private volatile Set<Integer> owned = Set.of();
  private volatile long validUntilNanos;
  private boolean seeded;

  Leases(DataSource dataSource, RelaySql sql, String owner, String name, Duration ttl) {
    this.dataSource = dataSource;
    this.sql = sql;
    this.owner = owner;
    this.name = name;
    this.ttlMillis = ttl.toMillis();
  }

  /** Buckets owned now, or none if the local deadline passed (e.g. after a long pause). */
  Set<Integer> usable() {
    return System.nanoTime() - validUntilNanos < 0 ? owned : Set.of();
  }

  /** Whether the leases are still usable for at least {@code margin}. */
  boolean validFor(Duration margin) {
    return validUntilNanos - System.nanoTime() > margin.toNanos();
  }

  /**
   * Extends this relay's unexpired leases and its heartbeat. Each lease is updated by its primary
   * key: an {@code UPDATE ... WHERE owner = ?} scans the lease table (no index on owner) and on
   * InnoDB locks every row it reads, so it queued behind any statement holding a lock on another
   * relay's lease, and made that relay's statements queue behind it.
   */
  void renew() throws SQLException {
    long start = System.nanoTime();
    try (Connection c = RelaySql.relayConnection(dataSource)) {
      heartbeat(c);
      perBucket(
          c,
          "UPDATE "
              + sql.lease
              + " SET expires_at = "
              + sql.dialect.nowPlusMillis()
              + " WHERE owner = ? AND expires_at > "
              + sql.dialect.now()
              + " AND bucket = ?",
          owned,
          ttlMillis,
          owner);
      owned = read(c, true);
    }
    // The database computed now()+ttl after 'start': counting from 'start' is conservative.
    validUntilNanos = start + Duration.ofMillis(ttlMillis * 9 / 10).toNanos();
  }

  /** Takes free or expired buckets up to a fair share, and gives back any above it. */
  void rebalance() throws SQLException {
    try (Connection c = RelaySql.relayConnection(dataSource)) {
      if (!seeded) {
        seed(c);
        seeded = true;
      }
      int relays = liveRelays(c);
      int share = (OutboxTable.BUCKETS + relays - 1) / relays;
      Set<Integer> mine = read(c, true);
      if (mine.size() < share) {
        acquire(c, share - mine.size());
      } else if (mine.size() > share) {
        giveBack(c, new ArrayList<>(mine).subList(share, mine.size()));
      }
    }
    Set<Integer> before = owned;
    renew();
    if (!before.equals(owned)) {
      log.info("{} - owns {} of {} key buckets", name, owned.size(), OutboxTable.BUCKETS);
    }
  }

  /** Gives back every lease and the heartbeat (graceful stop). */
  void release() throws SQLException {
    owned = Set.of();
    validUntilNanos = System.nanoTime();
    try (Connection c = RelaySql.relayConnection(dataSource)) {
      giveBack(c, read(c, false));
      try (PreparedStatement ps =
          c.prepareStatement("DELETE FROM " + sql.relay + " WHERE owner = ?")) {
        ps.setString(1, owner);
        ps.executeUpdate();
      }
    }
  }

  /**
   * The buckets this relay holds now on the database clock (a plain read, which locks nothing),
   * without changing what it believes it owns.
   */
  Set<Integer> held() throws SQLException {
    try (Connection c = RelaySql.relayConnection(dataSource)) {
      return read(c, true);
    }
  }

  /** Forgets the leases locally, e.g. when a fenced statement found one lost. */
  void invalidate() {
    validUntilNanos = System.nanoTime();
  }

  private void acquire(Connection c, int wanted) throws SQLException {
    List<Integer> free = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT bucket FROM "
                + sql.lease
                + " WHERE owner IS NULL OR expires_at IS NULL OR expires_at <= "
                + sql.dialect.now()
                + " ORDER BY bucket")) {
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next() && free.size() < wanted) {
          free.add(rs.getInt(1));
        }
      }
    }
    if (free.isEmpty()) {
      return;
    }
    // The condition is re-checked by each UPDATE, so two relays never take one bucket; one point
    // update per bucket, as in renew().
    perBucket(
        c,
        "UPDATE "
            + sql.lease
            + " SET owner = ?, epoch = epoch + 1, expires_at = "
            + sql.dialect.nowPlusMillis()
            + " WHERE (owner IS NULL OR expires_at IS NULL OR expires_at <= "
            + sql.dialect.now()
            + ") AND bucket = ?",
        free,
        owner,
        ttlMillis);
  }

  private void giveBack(Connection c, java.util.Collection<Integer> buckets) throws SQLException {
    perBucket(
        c,
        "UPDATE "
            + sql.lease
            + " SET owner = NULL, expires_at = NULL WHERE owner = ? AND bucket = ?",
        buckets,
        owner);
  }

  /**
   * Runs a statement whose last parameter is a bucket once per bucket, in ascending order (so two
   * relays lock leases in the same order and cannot deadlock), in one transaction.
   */
  private static void perBucket(
      Connection c, String statement, java.util.Collection<Integer> buckets, Object... first)
      throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    for (int b : new TreeSet<>(buckets)) {
      List<Object> row = new ArrayList<>(List.of(first));
      row.add(b);
      rows.add(row);
    }
    SqlBatch.inOneTransaction(c, statement, rows);
  }

  /**
   * Updates this relay's heartbeat by primary key, inserting it the first time. Not an upsert: on
   * InnoDB {@code INSERT ... ON DUPLICATE KEY UPDATE} takes a next-key lock on the existing row,
   * which a starting relay's insert next to it would wait for.
   */
  private void heartbeat(Connection c) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE "
                + sql.relay
                + " SET expires_at = "
                + sql.dialect.nowPlusMillis()
                + " WHERE owner = ?")) {
      ps.setLong(1, ttlMillis);
      ps.setString(2, owner);
      if (ps.executeUpdate() > 0) {
        return;
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            sql.dialect.insertIgnore(
                sql.relay,
                "(owner, expires_at) VALUES (?, " + sql.dialect.nowPlusMillis() + ")"))) {
      ps.setString(1, owner);
      ps.setLong(2, ttlMillis);
      ps.executeUpdate();
    }
  }

  private int liveRelays(Connection c) throws SQLException {
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT COUNT(*) FROM " + sql.relay + " WHERE expires_at > " + sql.dialect.now());
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return Math.max(1, rs.getInt(1));
    }
  }

  /** This relay's buckets (unexpired ones only, or all); a plain read, which locks nothing. */
  private Set<Integer> read(Connection c, boolean unexpired) throws SQLException {
    Set<Integer> buckets = new TreeSet<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT bucket FROM "
                + sql.lease
                + " WHERE owner = ?"
                + (unexpired ? " AND expires_at > " + sql.dialect.now() : ""))) {
      ps.setString(1, owner);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          buckets.add(rs.getInt(1));
        }
      }
    }
    return Set.copyOf(buckets);
  }

  private void seed(Connection c) throws SQLException {
    StringBuilder values = new StringBuilder();
    for (int b = 0; b < OutboxTable.BUCKETS; b++) {
      values.append(b == 0 ? "" : ", ").append('(').append(b).append(')');
    }
    try (PreparedStatement ps =
        c.prepareStatement(sql.dialect.insertIgnore(sql.lease, "(bucket) VALUES " + values))) {
      ps.executeUpdate();
    }
  }
}
