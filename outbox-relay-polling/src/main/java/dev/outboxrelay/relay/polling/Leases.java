package dev.outboxrelay.relay.polling;

import dev.outboxrelay.core.OutboxTable;
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

  /** Extends this relay's unexpired leases and its heartbeat. */
  void renew() throws SQLException {
    long start = System.nanoTime();
    try (Connection c = RelaySql.relayConnection(dataSource)) {
      heartbeat(c);
      try (PreparedStatement ps =
          c.prepareStatement(
              "UPDATE "
                  + sql.lease
                  + " SET expires_at = "
                  + sql.nowPlusMillis()
                  + " WHERE owner = ? AND expires_at > "
                  + sql.now())) {
        ps.setLong(1, ttlMillis);
        ps.setString(2, owner);
        ps.executeUpdate();
      }
      owned = read(c);
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
      Set<Integer> mine = read(c);
      if (mine.size() < share) {
        acquire(c, share - mine.size());
      } else if (mine.size() > share) {
        List<Integer> excess = new ArrayList<>(mine).subList(share, mine.size());
        update(
            c,
            "UPDATE "
                + sql.lease
                + " SET owner = NULL, expires_at = NULL WHERE owner = ?"
                + " AND bucket IN ("
                + RelaySql.marks(excess.size())
                + ")",
            excess);
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
      update(
          c,
          "UPDATE " + sql.lease + " SET owner = NULL, expires_at = NULL WHERE owner = ?",
          List.of());
      update(c, "DELETE FROM " + sql.relay + " WHERE owner = ?", List.of());
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
                + sql.now()
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
    // The condition is re-checked by the UPDATE itself, so two relays never take one bucket.
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE "
                + sql.lease
                + " SET owner = ?,"
                + " epoch = epoch + 1, expires_at = "
                + sql.nowPlusMillis()
                + " WHERE bucket IN ("
                + RelaySql.marks(free.size())
                + ") AND (owner IS NULL OR expires_at IS NULL OR expires_at <= "
                + sql.now()
                + ")")) {
      ps.setString(1, owner);
      ps.setLong(2, ttlMillis);
      for (int i = 0; i < free.size(); i++) {
        ps.setInt(3 + i, free.get(i));
      }
      ps.executeUpdate();
    }
  }

  private void heartbeat(Connection c) throws SQLException {
    String upsert =
        sql.dialect == dev.outboxrelay.core.SqlDialect.POSTGRESQL
            ? "INSERT INTO "
                + sql.relay
                + " (owner, expires_at) VALUES (?, "
                + sql.nowPlusMillis()
                + ") ON CONFLICT (owner) DO UPDATE SET expires_at = EXCLUDED.expires_at"
            : "INSERT INTO "
                + sql.relay
                + " (owner, expires_at) VALUES (?, "
                + sql.nowPlusMillis()
                + ") ON DUPLICATE KEY UPDATE expires_at = VALUES(expires_at)";
    try (PreparedStatement ps = c.prepareStatement(upsert)) {
      ps.setString(1, owner);
      ps.setLong(2, ttlMillis);
      ps.executeUpdate();
    }
  }

  private int liveRelays(Connection c) throws SQLException {
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT COUNT(*) FROM " + sql.relay + " WHERE expires_at > " + sql.now());
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return Math.max(1, rs.getInt(1));
    }
  }

  private Set<Integer> read(Connection c) throws SQLException {
    Set<Integer> buckets = new TreeSet<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT bucket FROM " + sql.lease + " WHERE owner = ? AND expires_at > " + sql.now())) {
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
        c.prepareStatement(sql.insertIgnore(sql.lease, "(bucket) VALUES " + values))) {
      ps.executeUpdate();
    }
  }

  private void update(Connection c, String statement, List<Integer> buckets) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(statement)) {
      ps.setString(1, owner);
      for (int i = 0; i < buckets.size(); i++) {
        ps.setInt(2 + i, buckets.get(i));
      }
      ps.executeUpdate();
    }
  }
}
