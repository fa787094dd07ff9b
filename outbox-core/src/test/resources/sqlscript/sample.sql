-- A comment line; ${ignored} here is never run.
CREATE TABLE IF NOT EXISTS ${table} (
    id bigint NOT NULL,

    PRIMARY KEY (id)
);
CREATE OR REPLACE FUNCTION ${table}_f() RETURNS trigger AS $$
BEGIN
  PERFORM 1;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
INSERT INTO ${table} (id) VALUES (1)
