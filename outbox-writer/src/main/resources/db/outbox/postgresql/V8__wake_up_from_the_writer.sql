-- The wake-up NOTIFY moves from the table's trigger to the writer, PostgreSQL 12+.
-- Placeholders: outbox_table, outbox_notify_function, outbox_notify_trigger, outbox_notify_once,
-- outbox_notify_clock.
-- Why: V6's deferred trigger ran in every inserting transaction (its WHEN function, the deferred
-- event, the SECURITY DEFINER function reading the clock sequence at commit) although only about 50
-- a second notified; measured with durable commits on 2 cores (benchmarks README, "Writer
-- overhead"), it cost a tenth of the business rate at 4 writer threads and a sixth at 32. The
-- writer (outbox-writer 0.1.0 and later, OutboxBuilder.wakeUpInterval) now sends pg_notify itself
-- in at most one transaction per 20 ms; the others pay nothing. Rows written by other writers
-- wake no relay: a relay finds them at its poll interval, or such a writer sends
-- SELECT pg_notify('<channel>', '') in its transaction (the channel: the table's name, lower case).
DROP TRIGGER IF EXISTS ${outbox_notify_trigger} ON ${outbox_table};
DROP FUNCTION IF EXISTS ${outbox_notify_function}();
DROP FUNCTION IF EXISTS ${outbox_notify_once}();
DROP SEQUENCE IF EXISTS ${outbox_notify_clock};
