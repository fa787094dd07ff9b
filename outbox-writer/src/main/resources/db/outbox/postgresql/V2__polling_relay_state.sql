-- State of the polling relay, PostgreSQL 12+.
-- Placeholders: outbox_table, outbox_lease_table, outbox_relay_table, outbox_parked_table, outbox_notify_function, outbox_notify_trigger,
-- outbox_channel (the LISTEN/NOTIFY channel, the outbox table's name).
-- Key-bucket leases: a relay may claim rows of a bucket only while it owns the bucket's lease (DB clock).
CREATE TABLE IF NOT EXISTS ${outbox_lease_table} (
    bucket     smallint     NOT NULL PRIMARY KEY,
    owner      varchar(128),
    epoch      bigint       NOT NULL DEFAULT 0,
    expires_at timestamptz
);
-- Live relay instances, so each takes a fair share of the buckets (heartbeat on the DB clock).
CREATE TABLE IF NOT EXISTS ${outbox_relay_table} (
    owner      varchar(128) NOT NULL PRIMARY KEY,
    expires_at timestamptz
);
-- Parked keys: a message the broker can never accept stops its key until an operator acts.
CREATE TABLE IF NOT EXISTS ${outbox_parked_table} (
    aggregateid varchar(255)  NOT NULL PRIMARY KEY,
    message_id  uuid          NOT NULL,
    bucket      smallint      NOT NULL,
    reason      varchar(2000) NOT NULL,
    parked_at   timestamptz   NOT NULL DEFAULT now()
);
-- Wakes idle relays at commit: one notification per inserting statement, delivered only if it commits.
CREATE OR REPLACE FUNCTION ${outbox_notify_function}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('${outbox_channel}', '');
    RETURN NULL;
END
$$;
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = '${outbox_notify_trigger}'
                   AND tgrelid = '${outbox_table}'::regclass) THEN
        CREATE TRIGGER ${outbox_notify_trigger} AFTER INSERT ON ${outbox_table}
            FOR EACH STATEMENT EXECUTE FUNCTION ${outbox_notify_function}();
    END IF;
END
$$;
