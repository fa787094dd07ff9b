-- Idempotency keys for requests, PostgreSQL 12+.
-- Placeholders (Flyway: flyway.placeholders.*): idempotency_table = table name, idempotency_completed_index = its
-- retention index.
-- status PROCESSING: owner holds the claim since claimed_at; DONE: response is the cached answer.
CREATE TABLE IF NOT EXISTS ${idempotency_table} (
    idempotency_key varchar(255) NOT NULL PRIMARY KEY,
    status          varchar(16)  NOT NULL,
    owner           varchar(64)  NOT NULL,
    claimed_at      timestamptz  NOT NULL DEFAULT now(),
    takeovers       integer      NOT NULL DEFAULT 0,
    completed_at    timestamptz,
    response        bytea
);
CREATE INDEX IF NOT EXISTS ${idempotency_completed_index} ON ${idempotency_table} (completed_at);
