-- Issue 34: signed webhooks (docs/decisions/webhooks.md). An endpoint belongs to one owner, a
-- publisher or a buyer (owner_kind); `secret` is the signing secret itself, since signing needs it
-- (keys and tokens are stored hashed because they are only ever compared). An event is written once
-- per owner; `dedupe` makes once-only events (a budget threshold in a month, a month closed) land
-- once whoever writes them. A delivery is one event to one endpoint, queued until it succeeds or
-- runs out of attempts; `lease_until` lets one node at a time work on it. Every attempt is logged.
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  owner_kind TEXT NOT NULL CHECK (owner_kind IN ('publisher', 'buyer')),
  owner_id TEXT NOT NULL,
  url TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  events TEXT NOT NULL,
  secret TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  rotated_at INTEGER
);
CREATE INDEX webhook_endpoints_by_owner ON webhook_endpoints (owner_kind, owner_id, created_at);

CREATE TABLE webhook_events (
  id TEXT PRIMARY KEY,
  owner_kind TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  type TEXT NOT NULL,
  payload TEXT NOT NULL,
  dedupe TEXT,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX webhook_events_once ON webhook_events (owner_kind, owner_id, dedupe)
  WHERE dedupe IS NOT NULL;

CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id TEXT NOT NULL REFERENCES webhook_events (id),
  state TEXT NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  lease_until INTEGER,
  leased_by TEXT,
  replay_of TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
  WHERE state = 'pending';
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at);

CREATE TABLE webhook_attempts (
  id TEXT PRIMARY KEY,
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  at INTEGER NOT NULL,
  status_code INTEGER,
  latency_ms INTEGER NOT NULL,
  excerpt TEXT NOT NULL DEFAULT '',
  error TEXT
);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id, at);
