-- outbox-relay table contract, PostgreSQL 12+.
-- Placeholders (Flyway: flyway.placeholders.*): outbox_table = table name, outbox_bucket_index = name of the pending-rows index.
-- One INSERT per message from the writer; everything the relays need is assigned by the database.
CREATE TABLE IF NOT EXISTS ${outbox_table} (
    id            uuid         NOT NULL PRIMARY KEY,
    aggregatetype varchar(255) NOT NULL,
    aggregateid   varchar(255) NOT NULL,
    type          varchar(255) NOT NULL,
    payload       bytea        NOT NULL,
    headers       text,
    traceparent   varchar(128),
    seq           bigint       GENERATED ALWAYS AS IDENTITY UNIQUE,
    bucket        smallint     GENERATED ALWAYS AS (hashtext(aggregateid) & 255) STORED,
    created_at    timestamptz  NOT NULL DEFAULT now(),
    txid          bigint       NOT NULL DEFAULT txid_current(),
    published_at  timestamptz
);
CREATE INDEX IF NOT EXISTS ${outbox_bucket_index} ON ${outbox_table} (bucket, seq) WHERE published_at IS NULL;
