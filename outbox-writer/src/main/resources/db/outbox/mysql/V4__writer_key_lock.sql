-- The writer's per-key lock table (key order, on by default), MySQL 8 and MariaDB 10.6+.
-- Placeholder: outbox_key_lock_table. One row per key slot (CRC-32 of the aggregateid & 0xFFFF), inserted on first use.
-- The writer upserts its keys' slots (INSERT ... ON DUPLICATE KEY UPDATE slot = slot) in its transaction before the
-- outbox insert: the exclusive row lock is held to commit, so same-key writers commit in the order of their seq.
-- The table is never changed after a slot's first insert and the relays never read it; CDC captures only the outbox table.
CREATE TABLE IF NOT EXISTS ${outbox_key_lock_table} (
    slot int NOT NULL PRIMARY KEY
) ENGINE = InnoDB;
