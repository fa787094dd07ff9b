package dev.outboxrelay.dedup;

import dev.outboxrelay.dedup.internal.BatchSql;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The batch form of a dedup record, on the caller's connection: one statement records every id and
 * tells which are new (an id twice in the batch counts once), then, with the high-water mark on,
 * one locks and reads the marks of the new messages' keys and one advances them.
 */
final class DedupBatch {
  private DedupBatch() {}

  static List<Outcome> claim(
      Connection c, BatchSql sql, String group, boolean highWaterMark, List<MessageIdentity> ids)
      throws SQLException {
    Outcome[] outcomes = new Outcome[ids.size()];
    if (ids.isEmpty()) {
      return List.of();
    }
    Set<String> distinct = new TreeSet<>();
    for (MessageIdentity id : ids) {
      distinct.add(id.id());
    }
    Set<String> fresh = sql.insertIds(c, group, new ArrayList<>(distinct));
    Set<String> seen = new HashSet<>();
    TreeSet<String> keys = new TreeSet<>();
    for (int i = 0; i < outcomes.length; i++) {
      MessageIdentity id = ids.get(i);
      boolean first = seen.add(id.id()) && fresh.contains(id.id());
      outcomes[i] = first ? Outcome.PROCESSED : Outcome.DUPLICATE;
      if (first && highWaterMark && id.markApplies()) {
        keys.add(id.key());
      }
    }
    if (!keys.isEmpty()) {
      applyMarks(c, sql, group, ids, outcomes, keys);
    }
    return Arrays.asList(outcomes);
  }

  /** Walks the batch in order as the per-message path would: stale at or below the mark. */
  private static void applyMarks(
      Connection c,
      BatchSql sql,
      String group,
      List<MessageIdentity> ids,
      Outcome[] outcomes,
      TreeSet<String> keys)
      throws SQLException {
    // Walk by the stored row, not the key's spelling: on MySQL/MariaDB "K" and "k" share a row.
    Map<String, BatchSql.Mark> locked = sql.lockMarks(c, group, new ArrayList<>(keys));
    Map<String, Long> marks = new HashMap<>();
    locked.values().forEach(m -> marks.put(m.row(), m.seq()));
    Map<String, Long> advanced = new TreeMap<>();
    for (int i = 0; i < outcomes.length; i++) {
      MessageIdentity id = ids.get(i);
      if (outcomes[i] != Outcome.PROCESSED || !id.markApplies()) {
        continue;
      }
      String row = locked.get(id.key()).row();
      if (id.sequence() <= marks.get(row)) {
        outcomes[i] = Outcome.STALE;
      } else {
        marks.put(row, id.sequence());
        advanced.put(row, id.sequence());
      }
    }
    if (!advanced.isEmpty()) {
      sql.setMarks(c, group, advanced);
    }
  }
}
