-- consumer-dedup tables, MySQL 8 and MariaDB 10.6+.
-- Placeholders (Flyway: flyway.placeholders.*): dedup_table = processed message ids, dedup_processed_index = its
-- retention index, dedup_hwm_table = per-key high-water marks.
-- One row per (consumer group, message id) processed; written in the same transaction as the handler.
CREATE TABLE IF NOT EXISTS ${dedup_table} (
    consumer_group varchar(255) NOT NULL,
    message_id     varchar(64)  NOT NULL,
    processed_at   timestamp(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    PRIMARY KEY (consumer_group, message_id),
    KEY ${dedup_processed_index} (processed_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
-- Highest seq applied per (consumer group, aggregate id); never purged.
CREATE TABLE IF NOT EXISTS ${dedup_hwm_table} (
    consumer_group varchar(255) NOT NULL,
    aggregate_id   varchar(255) NOT NULL,
    seq            bigint       NOT NULL,
    updated_at     timestamp(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    PRIMARY KEY (consumer_group, aggregate_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
