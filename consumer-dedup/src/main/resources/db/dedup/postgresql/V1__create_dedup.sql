-- consumer-dedup tables, PostgreSQL 12+.
-- Placeholders (Flyway: flyway.placeholders.*): dedup_table = processed message ids, dedup_processed_index = its
-- retention index, dedup_hwm_table = per-key high-water marks.
-- One row per (consumer group, message id) processed; written in the same transaction as the handler.
CREATE TABLE IF NOT EXISTS ${dedup_table} (
    consumer_group varchar(255) NOT NULL,
    message_id     varchar(64)  NOT NULL,
    processed_at   timestamptz  NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer_group, message_id)
);
CREATE INDEX IF NOT EXISTS ${dedup_processed_index} ON ${dedup_table} (processed_at);
-- Highest seq applied per (consumer group, aggregate id); never purged.
CREATE TABLE IF NOT EXISTS ${dedup_hwm_table} (
    consumer_group varchar(255) NOT NULL,
    aggregate_id   varchar(255) NOT NULL,
    seq            bigint       NOT NULL,
    updated_at     timestamptz  NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer_group, aggregate_id)
);
