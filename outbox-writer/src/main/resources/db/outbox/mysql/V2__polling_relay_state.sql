-- State of the polling relay, MySQL 8 and MariaDB 10.6+.
-- Placeholders: outbox_lease_table, outbox_relay_table, outbox_parked_table.
-- Key-bucket leases: a relay may claim rows of a bucket only while it owns the bucket's lease (DB clock).
CREATE TABLE IF NOT EXISTS ${outbox_lease_table} (
    bucket     smallint     NOT NULL PRIMARY KEY,
    owner      varchar(128),
    epoch      bigint       NOT NULL DEFAULT 0,
    expires_at timestamp(6) NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
-- Live relay instances, so each takes a fair share of the buckets (heartbeat on the DB clock).
CREATE TABLE IF NOT EXISTS ${outbox_relay_table} (
    owner      varchar(128) NOT NULL PRIMARY KEY,
    expires_at timestamp(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
-- Parked keys: a message the broker can never accept stops its key until an operator acts.
CREATE TABLE IF NOT EXISTS ${outbox_parked_table} (
    aggregateid varchar(255)  NOT NULL PRIMARY KEY,
    message_id  char(36)      NOT NULL,
    bucket      smallint      NOT NULL,
    reason      varchar(2000) NOT NULL,
    parked_at   timestamp(6)  NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
