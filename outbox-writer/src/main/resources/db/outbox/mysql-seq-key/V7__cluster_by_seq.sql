-- The outbox table stored in seq order, MySQL 8 and MariaDB 10.6+.
-- Placeholders: outbox_table, outbox_table_schema (a string literal, or DATABASE()), outbox_table_name (a string
-- literal), outbox_id_index (the unique index on id).
-- Why: InnoDB stores a table in its primary key's order. Keyed by the random uuid id, each insert lands on a random
-- page, and a relay's claim (in seq order) and its delete reach every row through a second lookup on a random page.
-- Keyed by seq, inserts append, a claim reads the table front to back, and a delete of a claimed batch touches the
-- pages just read (measured: outbox-writer README, "The seq-keyed layout"). id stays unique (the dedup key
-- everywhere downstream); the unique index V1 put on seq alone is dropped, the primary key now being that index.
-- Not in the mysql folder, so that Flyway applies it only when asked: relays of versions before it name rows by
-- FORCE INDEX (PRIMARY) on id, a locking full scan per row on a table keyed by seq. Apply it at installation, or
-- to an existing table with every relay of the table stopped (the ALTER rebuilds the table, writes allowed).
-- createIfMissing applies it to the tables it creates. Does nothing to a table whose primary key is not id alone.
SET @outbox_cluster_by_seq = (
    SELECT IF(GROUP_CONCAT(p.COLUMN_NAME ORDER BY p.SEQ_IN_INDEX) = 'id',
              CONCAT('ALTER TABLE ${outbox_table} DROP PRIMARY KEY, ADD PRIMARY KEY (seq), ADD UNIQUE KEY ${outbox_id_index} (id)',
                     IF(EXISTS (SELECT 1 FROM information_schema.STATISTICS s
                                 WHERE s.TABLE_SCHEMA = ${outbox_table_schema} AND s.TABLE_NAME = ${outbox_table_name}
                                   AND s.INDEX_NAME = 'seq' AND s.COLUMN_NAME = 'seq' AND s.NON_UNIQUE = 0),
                        ', DROP INDEX seq', '')),
              'DO 0')
      FROM information_schema.STATISTICS p
     WHERE p.TABLE_SCHEMA = ${outbox_table_schema} AND p.TABLE_NAME = ${outbox_table_name} AND p.INDEX_NAME = 'PRIMARY');
PREPARE outbox_cluster_by_seq FROM @outbox_cluster_by_seq;
EXECUTE outbox_cluster_by_seq;
DEALLOCATE PREPARE outbox_cluster_by_seq;
