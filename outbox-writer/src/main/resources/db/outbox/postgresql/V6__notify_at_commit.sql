-- The wake-up NOTIFY at commit, at most one per transaction and about one per 20 ms, PostgreSQL 12+.
-- Placeholders: outbox_table, outbox_notify_function, outbox_notify_trigger, outbox_notify_once,
-- outbox_notify_clock, outbox_notify_setting, outbox_channel.
-- Why: a transaction that has called NOTIFY takes one database-wide lock at commit and holds it
-- through its WAL flush, so notifying transactions commit one after another and lose group commit.
-- V2's trigger notified in every inserting transaction. Here a deferred trigger decides at commit,
-- once per transaction, and notifies only when the 20 ms slot of the clock has moved since the last
-- notification: an idle relay still wakes at the first commit; under load only about 50
-- transactions a second take the lock. (5 ms slots, 200 a second, still cost half the throughput
-- of 32 writers on a 2-core machine with durable commits: notifiers queue for the lock.) A commit that did not notify is found by the relay's
-- follow-up polls after the notification before it, or by the next one; the poll interval is the
-- backstop, as before.
CREATE SEQUENCE IF NOT EXISTS ${outbox_notify_clock};
-- True the first time a transaction (or a savepoint that survives) asks: queues one trigger event.
CREATE OR REPLACE FUNCTION ${outbox_notify_once}() RETURNS boolean LANGUAGE sql VOLATILE AS $$
    SELECT coalesce(current_setting('${outbox_notify_setting}', true), '') <> '1'
       AND set_config('${outbox_notify_setting}', '1', true) = '1'
$$;
-- Security definer, so writers need no grant on the clock sequence. Such a function must not
-- resolve names through a path its callers can shape (a writer's temporary view named like the
-- sequence would run as the function's owner): the search_path is pg_catalog then pg_temp, and the
-- sequence is named schema-qualified, its schema looked up here, as this migration resolves it.
DO $$
DECLARE
    clock text;
BEGIN
    SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) INTO clock
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.oid = '${outbox_notify_clock}'::regclass;
    EXECUTE format($f$
CREATE OR REPLACE FUNCTION ${outbox_notify_function}() RETURNS trigger LANGUAGE plpgsql
    SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $body$
DECLARE
    slot bigint := floor(extract(epoch FROM clock_timestamp()) * 50)::bigint;
BEGIN
    IF (SELECT last_value FROM %1$s) <> slot THEN
        PERFORM setval(%2$L::regclass, slot);
        PERFORM pg_notify(%3$L, '');
    END IF;
    RETURN NULL;
END
$body$ $f$, clock, clock, '${outbox_channel}');
END
$$;
-- (<>, not <, above: a clock stepped back must not silence the wake-up until it catches up.)
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = '${outbox_notify_trigger}'
               AND tgrelid = '${outbox_table}'::regclass AND NOT tgdeferrable) THEN
        DROP TRIGGER ${outbox_notify_trigger} ON ${outbox_table};
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = '${outbox_notify_trigger}'
                   AND tgrelid = '${outbox_table}'::regclass) THEN
        CREATE CONSTRAINT TRIGGER ${outbox_notify_trigger} AFTER INSERT ON ${outbox_table}
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
            WHEN (${outbox_notify_once}()) EXECUTE FUNCTION ${outbox_notify_function}();
    END IF;
END
$$;
