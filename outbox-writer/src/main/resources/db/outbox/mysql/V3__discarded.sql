-- Discarded messages, MySQL 8 and MariaDB 10.6+. Placeholder: outbox_discarded_table.
-- An operator dropped a parked message on purpose: verify reports it as discarded (not missing) and never sends it.
CREATE TABLE IF NOT EXISTS ${outbox_discarded_table} (
    message_id   char(36)      NOT NULL PRIMARY KEY,
    aggregateid  varchar(255)  NOT NULL,
    reason       varchar(2000) NOT NULL,
    discarded_by varchar(255)  NOT NULL,
    discarded_at timestamp(6)  NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
