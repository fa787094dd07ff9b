CREATE TABLE IF NOT EXISTS orders (
  id VARCHAR(64) PRIMARY KEY,
  item VARCHAR(100) NOT NULL,
  quantity INT NOT NULL
);
CREATE TABLE IF NOT EXISTS stock (
  item VARCHAR(100) PRIMARY KEY,
  available INT NOT NULL
);
-- No unique key on order_id on purpose: only dedup keeps a second shipment out.
CREATE TABLE IF NOT EXISTS shipments (
  order_id VARCHAR(64) NOT NULL,
  details TEXT NOT NULL
);
