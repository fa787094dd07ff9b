-- outbox-relay table contract, MySQL 8 and MariaDB 10.6+.
-- Placeholders (Flyway: flyway.placeholders.*): outbox_table = table name, outbox_bucket_index = name of the pending-rows index.
-- One INSERT per message from the writer; everything the relays need is assigned by the database.
CREATE TABLE IF NOT EXISTS ${outbox_table} (
    id            char(36)     NOT NULL PRIMARY KEY,
    aggregatetype varchar(255) NOT NULL,
    aggregateid   varchar(255) NOT NULL,
    type          varchar(255) NOT NULL,
    payload       longblob     NOT NULL,
    headers       text,
    traceparent   varchar(128),
    seq           bigint       NOT NULL AUTO_INCREMENT UNIQUE,
    bucket        smallint     GENERATED ALWAYS AS (crc32(aggregateid) & 255) STORED,
    created_at    timestamp(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    published_at  timestamp(6) NULL,
    KEY ${outbox_bucket_index} (bucket, published_at, seq)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
