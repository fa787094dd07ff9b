package dev.outboxrelay.it.correctness;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.testing.history.History;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * Concurrent writer lanes, each a chain of transactions on its own connection: a business row and
 * 1–3 outbox rows, then commit or (about one in ten) roll back after a random delay, paced to a
 * target rate. Timed pauses are scheduled, never slept. Every outcome goes to the {@link History}:
 * a failed commit is recorded as unknown and settled later from the business table.
 */
final class Writers implements AutoCloseable {
  /** What to write. */
  record Options(
      int messages,
      int lanes,
      int keysPerLane,
      boolean sharedKeys,
      int ratePerSecond,
      int maxCommitDelayMillis,
      boolean orderBySeq,
      int unorderedLanes) {
    static Options of(int messages) {
      return new Options(messages, 6, 3, false, 250, 20, false, 0);
    }

    /** Paced to {@code perSecond} messages a second in all. */
    Options rate(int perSecond) {
      return new Options(
          messages,
          lanes,
          keysPerLane,
          sharedKeys,
          perSecond,
          maxCommitDelayMillis,
          orderBySeq,
          unorderedLanes);
    }

    /**
     * All lanes write the same {@code keys} keys, so same-key transactions overlap. Half the lanes
     * write without key order, so same-key commits really invert (with key order a same-key writer
     * waits for the lock holder's commit); their messages exercise the consumers' dedup-only
     * fallback, while the key-ordered lanes' messages keep the high-water mark applying.
     */
    Options sharedKeys(int keys, boolean orderBySeq) {
      return new Options(
          messages, lanes, keys, true, ratePerSecond, maxCommitDelayMillis, orderBySeq, lanes / 2);
    }
  }

  private final DataSource ds;
  private final History history;
  private final Options options;
  private final Outbox ordered = Outbox.builder().build();
  private final Outbox unordered = Outbox.builder().keyOrder(false).build();
  // A lane blocked on a key lock holds its thread until the lock holder commits, and the holder
  // needs a thread to commit: one per lane, plus one, so waiting lanes can never starve the holder.
  private final ScheduledExecutorService exec;
  private final AtomicInteger written = new AtomicInteger();
  private final AtomicInteger lanesDone = new AtomicInteger();
  private final AtomicInteger failures = new AtomicInteger();
  private final Map<String, AtomicLong> perKey = new ConcurrentHashMap<>();
  private final CompletableFuture<Void> done = new CompletableFuture<>();

  Writers(DataSource ds, History history, Options options) {
    this.ds = ds;
    this.history = history;
    this.options = options;
    this.exec = Executors.newScheduledThreadPool(options.lanes() + 1);
  }

  Writers start() {
    for (int i = 0; i < options.lanes(); i++) {
      Lane lane = new Lane(i);
      exec.execute(guarded(lane::begin));
    }
    return this;
  }

  /** Messages written so far (committed, rolled back or unknown). */
  int written() {
    return written.get();
  }

  /** Transactions whose begin or commit failed (database down). */
  int failures() {
    return failures.get();
  }

  CompletableFuture<Void> done() {
    return done;
  }

  /** A lane that dies fails the run at once instead of leaving it waiting. */
  private Runnable guarded(Runnable step) {
    return () -> {
      try {
        step.run();
      } catch (Throwable t) {
        t.printStackTrace(System.out);
        done.completeExceptionally(t);
      }
    };
  }

  private final class Lane {
    private final int index;
    private Connection conn;
    private List<OutboxMessage> tx = List.of();
    private long[] seqs;
    // Key-ordered lanes of even index write late (OutboxBuffer, flushed right before the commit),
    // the others at save: both ways share the keys and their locks.
    private OutboxBuffer late;

    Lane(int index) {
      this.index = index;
    }

    void begin() {
      if (written.get() >= options.messages()) {
        if (lanesDone.incrementAndGet() == options.lanes()) {
          done.complete(null);
        }
        return;
      }
      ThreadLocalRandom random = ThreadLocalRandom.current();
      try {
        if (conn == null) {
          conn = ds.getConnection();
          conn.setAutoCommit(false);
        }
        List<OutboxMessage> messages = new ArrayList<>();
        for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
          messages.add(message(key(random)));
        }
        // A database deadlock between lanes (possible only without key order, or across keys on
        // MySQL's lock slots) fails this transaction like any other error below: counted, retried.
        boolean keyOrdered = index >= options.unorderedLanes();
        if (keyOrdered && index % 2 == 0) {
          late = ordered.buffer();
          late.saveAll(messages);
        } else {
          late = null;
          (keyOrdered ? ordered : unordered).saveAll(conn, messages);
        }
        insertBusinessRows(messages);
        seqs = options.orderBySeq() && late == null ? seqs(messages) : null;
        tx = messages;
        written.addAndGet(messages.size());
        exec.schedule(
            guarded(this::finish),
            random.nextInt(options.maxCommitDelayMillis() + 1),
            TimeUnit.MILLISECONDS);
      } catch (SQLException | RuntimeException | AssertionError e) {
        // Nothing of this transaction committed: it dies with its connection. (pgjdbc's
        // executeBatch throws AssertionError, not SQLException, when the server went away.)
        failed();
        exec.schedule(guarded(this::begin), 200, TimeUnit.MILLISECONDS);
      }
    }

    void finish() {
      boolean rollback = ThreadLocalRandom.current().nextInt(10) == 0;
      long from = System.nanoTime();
      long pause = Math.max(0, 1000L * options.lanes() * 2 / options.ratePerSecond());
      try {
        if (rollback) {
          conn.rollback();
          tx.forEach(m -> history.rolledBack(m.aggregateId(), m.id()));
        } else {
          if (late != null) {
            late.flush(conn);
            seqs = options.orderBySeq() ? seqs(tx) : null;
          }
          conn.commit();
          long to = System.nanoTime();
          for (int i = 0; i < tx.size(); i++) {
            OutboxMessage m = tx.get(i);
            long lo = seqs == null ? from : seqs[i];
            long hi = seqs == null ? to : seqs[i];
            history.committed(m.aggregateId(), m.id(), lo, hi);
          }
        }
      } catch (SQLException | RuntimeException | AssertionError e) {
        for (int i = 0; i < tx.size(); i++) {
          OutboxMessage m = tx.get(i);
          if (rollback) {
            history.rolledBack(m.aggregateId(), m.id());
          } else {
            long lo = seqs == null ? from : seqs[i];
            long hi = seqs == null ? System.nanoTime() : seqs[i];
            history.unknown(m.aggregateId(), m.id(), lo, hi);
          }
        }
        failed();
        pause = 200;
      }
      tx = List.of();
      exec.schedule(guarded(this::begin), pause, TimeUnit.MILLISECONDS);
    }

    private String key(ThreadLocalRandom random) {
      int k = random.nextInt(options.keysPerLane());
      return options.sharedKeys() ? "shared-k" + k : "w" + index + "-k" + k;
    }

    private OutboxMessage message(String key) {
      long n = perKey.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
      return OutboxMessage.builder()
          .aggregateType("order")
          .aggregateId(key)
          .type("OrderChanged")
          .payload("{\"key\":\"" + key + "\",\"n\":" + n + "}")
          .build();
    }

    private void insertBusinessRows(List<OutboxMessage> messages) throws SQLException {
      try (PreparedStatement ps =
          conn.prepareStatement("INSERT INTO business_write (id, k) VALUES (?, ?)")) {
        for (OutboxMessage m : messages) {
          ps.setString(1, m.id().toString());
          ps.setString(2, m.aggregateId());
          ps.addBatch();
        }
        ps.executeBatch();
      }
    }

    private long[] seqs(List<OutboxMessage> messages) throws SQLException {
      long[] out = new long[messages.size()];
      try (PreparedStatement ps = conn.prepareStatement("SELECT seq FROM outbox WHERE id = ?")) {
        for (int i = 0; i < out.length; i++) {
          ps.setObject(1, messages.get(i).id());
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            out[i] = rs.getLong(1);
          }
        }
      }
      return out;
    }

    private void failed() {
      failures.incrementAndGet();
      if (conn != null) {
        try {
          conn.close();
        } catch (SQLException ignored) {
          // the connection is gone with the database
        }
        conn = null;
      }
    }
  }

  @Override
  public void close() {
    exec.shutdownNow();
  }
}
