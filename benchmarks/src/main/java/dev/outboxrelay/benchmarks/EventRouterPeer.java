package dev.outboxrelay.benchmarks;

import dev.outboxrelay.core.SqlDialect;
import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The Debezium peer: Debezium embedded (3.5) with its own Outbox Event Router transform on the same
 * table, sending the routed records to the same Kafka with the same producer settings, the way
 * Debezium Server does: a batch is marked processed after every record of it was acknowledged.
 * Offsets and schema history live in the database (Debezium's JDBC stores), as for our relay.
 */
final class EventRouterPeer implements CdcBench.Engine {
  private final DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;
  private final ExecutorService thread = Executors.newSingleThreadExecutor();
  private final KafkaProducer<byte[], byte[]> producer;

  EventRouterPeer(Kafka kafka, Db db, String prefix, String name) {
    this.producer =
        new KafkaProducer<>(
            new HashMap<>(kafka.producerSettings()),
            new ByteArraySerializer(),
            new ByteArraySerializer());
    this.engine =
        DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
            .using(config(db, prefix, name))
            .notifying(this::handle)
            .build();
    thread.execute(engine);
  }

  private void handle(
      List<RecordChangeEvent<SourceRecord>> records,
      DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
      throws InterruptedException {
    List<Future<RecordMetadata>> acks = new ArrayList<>(records.size());
    for (RecordChangeEvent<SourceRecord> r : records) {
      SourceRecord s = r.record();
      if (s.value() != null) {
        acks.add(producer.send(toKafka(s)));
      }
    }
    for (Future<RecordMetadata> f : acks) {
      try {
        f.get();
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException("send failed", e.getCause());
      }
    }
    for (RecordChangeEvent<SourceRecord> r : records) {
      committer.markProcessed(r);
    }
    committer.markBatchFinished();
  }

  private static ProducerRecord<byte[], byte[]> toKafka(SourceRecord s) {
    RecordHeaders headers = new RecordHeaders();
    for (Header h : s.headers()) {
      headers.add(h.key(), utf8(String.valueOf(h.value())));
    }
    byte[] value =
        s.value() instanceof ByteBuffer b
            ? bytes(b)
            : s.value() instanceof byte[] a ? a : utf8(String.valueOf(s.value()));
    byte[] key = s.key() == null ? null : utf8(String.valueOf(s.key()));
    return new ProducerRecord<>(s.topic(), null, key, value, headers);
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.duplicate().get(a);
    return a;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static Properties config(Db db, String prefix, String name) {
    Properties p = new Properties();
    p.setProperty("name", name);
    p.setProperty("topic.prefix", name);
    p.setProperty("database.hostname", "127.0.0.1");
    p.setProperty("database.port", String.valueOf(db.server.port()));
    p.setProperty("database.user", db.server.user());
    p.setProperty("database.password", db.server.password());
    p.setProperty("snapshot.mode", "no_data");
    p.setProperty("poll.interval.ms", "20");
    p.setProperty("offset.flush.interval.ms", "0");
    p.setProperty("offset.storage", "io.debezium.storage.jdbc.offset.JdbcOffsetBackingStore");
    jdbc(p, "offset.storage.", db);
    p.setProperty("offset.storage.jdbc.table.name", "dbz_offsets");
    p.setProperty("transforms", "outbox");
    p.setProperty("transforms.outbox.type", "io.debezium.transforms.outbox.EventRouter");
    p.setProperty("transforms.outbox.route.topic.replacement", prefix + "${routedByValue}");
    p.setProperty(
        "transforms.outbox.table.fields.additional.placement",
        "type:header:type,aggregatetype:header:aggregatetype");
    if (db.server.dialect() == SqlDialect.POSTGRESQL) {
      p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
      p.setProperty("database.dbname", db.name);
      p.setProperty("plugin.name", "pgoutput");
      p.setProperty("slot.name", name);
      p.setProperty("publication.name", name);
      p.setProperty("publication.autocreate.mode", "filtered");
      p.setProperty("table.include.list", "public.outbox");
    } else {
      p.setProperty("connector.class", "io.debezium.connector.mariadb.MariaDbConnector");
      p.setProperty("database.include.list", db.name);
      p.setProperty("table.include.list", db.name + ".outbox");
      p.setProperty(
          "database.server.id", String.valueOf(7400 + Math.floorMod(name.hashCode(), 1 << 20)));
      p.setProperty("snapshot.locking.mode", "none");
      p.setProperty("include.schema.changes", "false");
      p.setProperty(
          "schema.history.internal", "io.debezium.storage.jdbc.history.JdbcSchemaHistory");
      p.setProperty("schema.history.internal.store.only.captured.tables.ddl", "true");
      jdbc(p, "schema.history.internal.", db);
      p.setProperty("schema.history.internal.jdbc.schema.history.table.name", "dbz_history");
      p.setProperty(
          "schema.history.internal.jdbc.schema.history.table.ddl",
          "CREATE TABLE %s (id VARCHAR(36) NOT NULL, history_data MEDIUMTEXT, history_data_seq"
              + " INTEGER, record_insert_ts TIMESTAMP NOT NULL, record_insert_seq INTEGER NOT NULL,"
              + " PRIMARY KEY (id, history_data_seq))");
    }
    return p;
  }

  private static void jdbc(Properties p, String prefix, Db db) {
    p.setProperty(prefix + "jdbc.connection.url", db.url());
    p.setProperty(prefix + "jdbc.connection.user", db.server.user());
    p.setProperty(prefix + "jdbc.connection.password", db.server.password());
  }

  @Override
  public void close() {
    try {
      engine.close();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    thread.shutdown();
    try {
      thread.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close();
  }
}
