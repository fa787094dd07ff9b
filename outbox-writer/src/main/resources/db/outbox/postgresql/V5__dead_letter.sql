-- Dead-letter copies of parked messages, PostgreSQL 12+. Placeholder: outbox_dead_letter_table.
-- A relay with a dead-letter topic copies a parked key's message there once and records it here; the row counts only
-- while it matches the key's parked row (message_id and parked_at), so a key unparked and parked again is copied again.
-- V5 in both dialect folders (MySQL's V4 is the writer's key-lock table), so one version means one schema everywhere.
CREATE TABLE IF NOT EXISTS ${outbox_dead_letter_table} (
    aggregateid varchar(255) NOT NULL PRIMARY KEY,
    message_id  uuid         NOT NULL,
    parked_at   timestamptz  NOT NULL,
    topic       varchar(255) NOT NULL,
    sent_at     timestamptz  NOT NULL DEFAULT now()
);
