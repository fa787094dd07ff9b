-- Idempotency keys for requests, MySQL 8 and MariaDB 10.6+.
-- Placeholders (Flyway: flyway.placeholders.*): idempotency_table = table name, idempotency_completed_index = its
-- retention index.
-- status PROCESSING: owner holds the claim since claimed_at; DONE: response is the cached answer.
CREATE TABLE IF NOT EXISTS ${idempotency_table} (
    idempotency_key varchar(255) NOT NULL PRIMARY KEY,
    status          varchar(16)  NOT NULL,
    owner           varchar(64)  NOT NULL,
    claimed_at      timestamp(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    takeovers       integer      NOT NULL DEFAULT 0,
    completed_at    timestamp(6) NULL,
    response        longblob,
    KEY ${idempotency_completed_index} (completed_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
