INSERT INTO stock (item, available) VALUES ('book', 1000000) ON CONFLICT (item) DO NOTHING;
INSERT INTO stock (item, available) VALUES ('rare-stamp', 0) ON CONFLICT (item) DO NOTHING;
