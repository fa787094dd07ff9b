-- Dead-letter copies of parked messages, MySQL 8 and MariaDB 10.6+. Placeholder: outbox_dead_letter_table.
-- A relay with a dead-letter topic copies a parked key's message there once and records it here; the row counts only
-- while it matches the key's parked row (message_id and parked_at), so a key unparked and parked again is copied again.
CREATE TABLE IF NOT EXISTS ${outbox_dead_letter_table} (
    aggregateid varchar(255) NOT NULL PRIMARY KEY,
    message_id  char(36)     NOT NULL,
    parked_at   timestamp(6) NOT NULL,
    topic       varchar(255) NOT NULL,
    sent_at     timestamp(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
