-- The writer's per-key lock table (key order, on by default), MySQL 8 and MariaDB 10.6+.
-- Placeholder: outbox_key_lock_table. One row per key slot (CRC-32 of the aggregateid & 0xFFFF), all 65536 created here.
-- The writer upserts its keys' slots (INSERT ... ON DUPLICATE KEY UPDATE slot = slot) in its transaction before the
-- outbox insert: the exclusive row lock is held to commit, so same-key writers commit in the order of their seq.
-- The table is never changed after it is filled and the relays never read it; CDC captures only the outbox table.
CREATE TABLE IF NOT EXISTS ${outbox_key_lock_table} (
    slot int NOT NULL PRIMARY KEY
) ENGINE = InnoDB;
-- Every slot exists before the first save, so the upsert always finds its row and takes a record lock only: inserting
-- missing slots concurrently takes gap and insert-intention locks, where unrelated keys could deadlock on each other.
-- Skipped when the table has rows (an older writer filled some on first use; the upsert still creates missing ones).
INSERT IGNORE INTO ${outbox_key_lock_table} (slot)
SELECT a.n + 16 * b.n + 256 * c.n + 4096 * d.n
FROM (SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7
      UNION ALL SELECT 8 UNION ALL SELECT 9 UNION ALL SELECT 10 UNION ALL SELECT 11 UNION ALL SELECT 12 UNION ALL SELECT 13 UNION ALL SELECT 14 UNION ALL SELECT 15) a
CROSS JOIN (SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7
      UNION ALL SELECT 8 UNION ALL SELECT 9 UNION ALL SELECT 10 UNION ALL SELECT 11 UNION ALL SELECT 12 UNION ALL SELECT 13 UNION ALL SELECT 14 UNION ALL SELECT 15) b
CROSS JOIN (SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7
      UNION ALL SELECT 8 UNION ALL SELECT 9 UNION ALL SELECT 10 UNION ALL SELECT 11 UNION ALL SELECT 12 UNION ALL SELECT 13 UNION ALL SELECT 14 UNION ALL SELECT 15) c
CROSS JOIN (SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7
      UNION ALL SELECT 8 UNION ALL SELECT 9 UNION ALL SELECT 10 UNION ALL SELECT 11 UNION ALL SELECT 12 UNION ALL SELECT 13 UNION ALL SELECT 14 UNION ALL SELECT 15) d
WHERE NOT EXISTS (SELECT 1 FROM ${outbox_key_lock_table});
