package dev.outboxrelay.dedup;

import dev.outboxrelay.dedup.internal.BatchSizer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The partitions of one consumer handled side by side ({@code concurrency(n)} of {@link
 * DedupKafkaConsumer}): each partition is a lane whose records run in offset order on at most one
 * worker thread at a time, so each lane's transactions use their own connection and commit
 * independently of the others'. The consumer loop {@linkplain #offer offers} what it polls and,
 * between polls, {@linkplain #settle settles} what the workers reported: only the loop thread
 * touches the Kafka consumer (seek, pause, commit), as the client requires. A lane that holds more
 * than {@code highWater} records asks for its partition to be paused until it is worked down.
 */
final class PartitionLanes<K, V> {
  /** Handles one partition's records in order, reporting through the given progress. */
  interface Work<K, V> {
    void handle(
        TopicPartition tp,
        List<ConsumerRecord<K, V>> records,
        BatchSizer sizer,
        DedupKafkaConsumer.Progress<K, V> progress);
  }

  /** What a worker reported; applied on the loop thread. */
  private record Event<K, V>(
      TopicPartition tp,
      long nextOffset,
      ConsumerRecord<K, V> failed,
      RuntimeException failure,
      Throwable crash) {}

  private final Work<K, V> work;
  private final int batchMaxRecords;
  private final Duration batchMaxTime;
  private final int highWater;
  private final ExecutorService pool;
  private final Map<TopicPartition, Lane> lanes = new HashMap<>(); // loop thread only
  private final ConcurrentLinkedQueue<Event<K, V>> events = new ConcurrentLinkedQueue<>();

  PartitionLanes(
      String name, int concurrency, int batchMaxRecords, Duration batchMaxTime, Work<K, V> work) {
    this.work = work;
    this.batchMaxRecords = batchMaxRecords;
    this.batchMaxTime = batchMaxTime;
    this.highWater = 2 * batchMaxRecords;
    AtomicInteger n = new AtomicInteger();
    this.pool =
        Executors.newFixedThreadPool(
            concurrency,
            r -> {
              Thread t = new Thread(r, "dedup-kafka-" + name + "-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Queues a poll's records of one partition on its lane. Returns {@code true} when the lane is
   * full and the partition should be paused. Records of a lane stopped by a failure are dropped:
   * the seek that settles the failure redelivers them.
   */
  boolean offer(TopicPartition tp, List<ConsumerRecord<K, V>> records) {
    Lane lane = lanes.computeIfAbsent(tp, Lane::new);
    boolean submit;
    synchronized (lane) {
      if (lane.stopped) {
        return false;
      }
      lane.queue.addAll(records);
      submit = !lane.scheduled;
      lane.scheduled = true;
    }
    if (submit) {
      pool.execute(lane);
    }
    return queued(tp) > highWater;
  }

  /** Records queued on this partition's lane and not yet taken by its worker. */
  int queued(TopicPartition tp) {
    Lane lane = lanes.get(tp);
    if (lane == null) {
      return 0;
    }
    synchronized (lane) {
      return lane.queue.size();
    }
  }

  /** Whether a partition paused as full may resume: its queue is down to one batch or less. */
  boolean drained(TopicPartition tp) {
    return queued(tp) <= batchMaxRecords;
  }

  /** Whether any lane is working or any report waits to be settled. */
  boolean busy() {
    if (!events.isEmpty()) {
      return true;
    }
    for (Lane lane : lanes.values()) {
      synchronized (lane) {
        if (lane.scheduled) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Applies the workers' reports in the order they were made: processed offsets and failures to
   * {@code to}, on the loop thread. A failure reopens its lane once applied (after the seek), so
   * the redelivered records are taken again. A worker that died rethrows here. Returns how many
   * transactions' progress was applied.
   */
  int settle(DedupKafkaConsumer.Progress<K, V> to) {
    int applied = 0;
    for (Event<K, V> e; (e = events.poll()) != null; ) {
      if (e.crash != null) {
        if (e.crash instanceof Error err) {
          throw err;
        }
        throw (RuntimeException) e.crash;
      }
      if (e.failed == null) {
        to.processed(e.tp, e.nextOffset);
        applied++;
        continue;
      }
      Lane lane = lanes.get(e.tp);
      if (lane == null) {
        continue; // released: the next owner starts from the committed offset
      }
      to.failed(e.tp, e.failed, e.failure);
      synchronized (lane) {
        lane.stopped = false;
      }
    }
    return applied;
  }

  /**
   * Stops the lanes of these partitions (revoked, lost or closing): drops what they have not
   * started and waits for the transaction in flight to end, so its progress is reported before the
   * offsets are committed. Loop thread; {@link #settle} afterwards.
   */
  void release(Collection<TopicPartition> partitions) {
    List<Lane> stopping = new ArrayList<>();
    for (TopicPartition tp : partitions) {
      Lane lane = lanes.remove(tp);
      if (lane != null) {
        stopping.add(lane);
      }
    }
    boolean interrupted = false;
    for (Lane lane : stopping) {
      synchronized (lane) {
        lane.stopped = true;
        lane.queue.clear();
        while (lane.scheduled) {
          try {
            lane.wait();
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Releases every lane and stops the workers. */
  void close() {
    release(new HashSet<>(lanes.keySet()));
    pool.shutdown();
  }

  /** One partition: its queue and whether a worker is on it; guarded by the lane itself. */
  private final class Lane implements Runnable, DedupKafkaConsumer.Progress<K, V> {
    final TopicPartition tp;
    final BatchSizer sizer;
    final ArrayDeque<ConsumerRecord<K, V>> queue = new ArrayDeque<>();
    boolean scheduled;
    boolean stopped; // failed (until settled) or released: takes no records

    Lane(TopicPartition tp) {
      this.tp = tp;
      this.sizer = new BatchSizer(batchMaxRecords, batchMaxTime);
    }

    @Override
    public void run() {
      while (true) {
        List<ConsumerRecord<K, V>> records;
        synchronized (this) {
          if (stopped || queue.isEmpty()) {
            scheduled = false;
            notifyAll();
            return;
          }
          records = new ArrayList<>(queue);
          queue.clear();
        }
        try {
          work.handle(tp, records, sizer, this);
        } catch (RuntimeException | Error e) {
          events.add(new Event<>(tp, 0, null, null, e));
          synchronized (this) {
            stopped = true;
            queue.clear();
            scheduled = false;
            notifyAll();
          }
          return;
        }
      }
    }

    @Override
    public void processed(TopicPartition tp, long nextOffset) {
      events.add(new Event<>(tp, nextOffset, null, null, null));
    }

    @Override
    public void failed(TopicPartition tp, ConsumerRecord<K, V> record, RuntimeException e) {
      synchronized (this) {
        stopped = true;
        queue.clear();
      }
      events.add(new Event<>(tp, 0, record, e, null));
    }
  }
}
