-- A person's copy of their data: one ZIP in R2, built by the DATA_EXPORTS Queue's consumer
-- (worker/queues/data-exports.ts), downloadable by its owner only until expires_at, then deleted by the cron.
CREATE TABLE data_exports (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status TEXT NOT NULL DEFAULT 'preparing' CHECK (status IN ('preparing', 'ready', 'failed', 'expired')),
  -- Server-generated (exports/{32 hex}.zip), never a /media key: the ZIP is served by /account/export/{id}/download.
  object_key TEXT NOT NULL UNIQUE,
  size_bytes INTEGER CHECK (size_bytes IS NULL OR size_bytes > 0),
  created_at TEXT NOT NULL,
  ready_at TEXT,
  expires_at TEXT,
  CHECK ((status = 'ready') <= (ready_at IS NOT NULL AND expires_at IS NOT NULL AND size_bytes IS NOT NULL))
);
-- At most one export in preparation per person; the request refuses a second one.
CREATE UNIQUE INDEX data_exports_one_preparing ON data_exports(user_id) WHERE status = 'preparing';
CREATE INDEX data_exports_of_user ON data_exports(user_id, id DESC);
-- The cron: ready exports past their link's end.
CREATE INDEX data_exports_due ON data_exports(expires_at) WHERE status = 'ready';
