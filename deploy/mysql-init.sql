-- The CDC relay reads the binlog as the application's user: it needs the replication privileges.
GRANT RELOAD, FLUSH_TABLES, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO 'outbox'@'%';
FLUSH PRIVILEGES;
