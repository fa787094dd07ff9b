-- Discarded messages, PostgreSQL 12+. Placeholder: outbox_discarded_table.
-- An operator dropped a parked message on purpose: verify reports it as discarded (not missing) and never sends it.
CREATE TABLE IF NOT EXISTS ${outbox_discarded_table} (
    message_id   uuid          NOT NULL PRIMARY KEY,
    aggregateid  varchar(255)  NOT NULL,
    reason       varchar(2000) NOT NULL,
    discarded_by varchar(255)  NOT NULL,
    discarded_at timestamptz   NOT NULL DEFAULT now()
);
