-- Folio's whole model (docs/DESIGN.md section 4). Times are integer milliseconds since the Unix epoch
-- (UTC); money is integer micro-dollars (µUSD); JSON columns hold small documents that are only
-- ever read whole. Every tenant table leads its indexes with publisher_id.

CREATE TABLE publishers (
  id TEXT PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  email TEXT,
  custom_domain TEXT UNIQUE COLLATE NOCASE,
  branding TEXT NOT NULL DEFAULT '{}',
  toggles TEXT NOT NULL DEFAULT '{}',
  rights TEXT NOT NULL DEFAULT '{}',
  prices TEXT NOT NULL DEFAULT '{}',
  paywall_meter_limit INTEGER NOT NULL DEFAULT 3 CHECK (paywall_meter_limit >= 0),
  robots_origin TEXT,
  enterprise_terms TEXT,
  sponsor_tools TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE publisher_users (
  id TEXT PRIMARY KEY,
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE publisher_keys (
  id TEXT PRIMARY KEY,
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  key_hash TEXT NOT NULL UNIQUE,
  hint TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX publisher_keys_by_publisher ON publisher_keys (publisher_id);

CREATE TABLE dashboard_sessions (
  token_hash TEXT PRIMARY KEY,
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES publisher_users(id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);

CREATE TABLE books (
  id TEXT PRIMARY KEY,
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  author TEXT NOT NULL,
  format TEXT NOT NULL CHECK (format IN ('pdf', 'markdown', 'text')),
  original_name TEXT,
  rights_ceiling TEXT NOT NULL,
  chapters INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX books_by_publisher ON books (publisher_id);

CREATE TABLE sources (
  id TEXT PRIMARY KEY,
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  kind TEXT NOT NULL DEFAULT 'csv',
  original_name TEXT,
  content_hash TEXT NOT NULL,
  accepted INTEGER NOT NULL DEFAULT 0,
  rejected INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX sources_by_publisher ON sources (publisher_id, content_hash);

-- Every URL a publisher has asked us to ingest, and where it stands.
CREATE TABLE source_urls (
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  source_id TEXT REFERENCES sources(id) ON DELETE SET NULL,
  title TEXT,
  state TEXT NOT NULL DEFAULT 'queued'
    CHECK (state IN ('queued', 'ingested', 'unchanged', 'failed', 'blocked')),
  reason TEXT,
  article_id TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  etag TEXT,
  last_modified TEXT,
  fetched_at INTEGER,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (publisher_id, url)
);
CREATE INDEX source_urls_by_state ON source_urls (publisher_id, state);

CREATE TABLE articles (
  id TEXT PRIMARY KEY,
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  canonical_url TEXT,
  title TEXT NOT NULL,
  author TEXT NOT NULL DEFAULT '',
  published_at INTEGER,
  summary TEXT NOT NULL DEFAULT '',
  tags TEXT NOT NULL DEFAULT '[]',
  body TEXT NOT NULL DEFAULT '',
  policy TEXT NOT NULL DEFAULT 'OBSERVE' CHECK (policy IN ('OBSERVE', 'PAYWALL', 'BLOCKED')),
  price_micros INTEGER CHECK (price_micros IS NULL OR price_micros >= 0),
  kind TEXT NOT NULL DEFAULT 'article' CHECK (kind IN ('article', 'chapter')),
  book_id TEXT REFERENCES books(id) ON DELETE CASCADE,
  chapter_no INTEGER,
  content_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (publisher_id, url)
);
CREATE INDEX articles_recent ON articles (publisher_id, published_at DESC);
CREATE INDEX articles_by_book ON articles (publisher_id, book_id, chapter_no);

CREATE TABLE article_tags (
  publisher_id TEXT NOT NULL,
  tag TEXT NOT NULL COLLATE NOCASE,
  article_id TEXT NOT NULL REFERENCES articles(id) ON DELETE CASCADE,
  PRIMARY KEY (publisher_id, tag, article_id)
);
CREATE INDEX article_tags_by_article ON article_tags (article_id);

-- Passages for retrieval: id is '<articleId>#<n>'; embedding is a little-endian Float32 blob.
CREATE TABLE chunks (
  id TEXT PRIMARY KEY,
  publisher_id TEXT NOT NULL,
  article_id TEXT NOT NULL REFERENCES articles(id) ON DELETE CASCADE,
  n INTEGER NOT NULL,
  section TEXT NOT NULL DEFAULT '',
  text TEXT NOT NULL,
  embedding BLOB,
  embedder TEXT,
  embed_attempts INTEGER NOT NULL DEFAULT 0,
  UNIQUE (article_id, n)
);
CREATE INDEX chunks_by_publisher ON chunks (publisher_id, article_id);
CREATE INDEX chunks_unembedded ON chunks (publisher_id) WHERE embedding IS NULL;

CREATE TABLE ingestion_jobs (
  id TEXT PRIMARY KEY,
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('drain', 'sync')),
  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'finished')),
  outcome TEXT CHECK (outcome IN ('SUCCEEDED', 'FAILED')),
  discovered INTEGER NOT NULL DEFAULT 0,
  ingested INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  reason TEXT,
  runner TEXT,
  heartbeat_at INTEGER,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER
);
CREATE INDEX ingestion_jobs_by_publisher ON ingestion_jobs (publisher_id, created_at DESC);
CREATE INDEX ingestion_jobs_active ON ingestion_jobs (state) WHERE state != 'finished';

CREATE TABLE content_rules (
  id TEXT PRIMARY KEY,
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  priority INTEGER NOT NULL,
  match TEXT NOT NULL DEFAULT '{}',
  action TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL
);
CREATE INDEX content_rules_by_publisher ON content_rules (publisher_id, priority);

CREATE TABLE robots (
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  origin TEXT NOT NULL,
  body TEXT,
  status INTEGER,
  fetched_at INTEGER NOT NULL,
  last_ok_at INTEGER,
  PRIMARY KEY (publisher_id, origin)
);

CREATE TABLE buyers (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL COLLATE NOCASE,
  created_at INTEGER NOT NULL
);

CREATE TABLE buyer_keys (
  id TEXT PRIMARY KEY,
  buyer_id TEXT NOT NULL REFERENCES buyers(id) ON DELETE CASCADE,
  key_hash TEXT NOT NULL UNIQUE,
  hint TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX buyer_keys_by_buyer ON buyer_keys (buyer_id);

-- OAuth clients: dynamically registered MCP installs, and one virtual 'buyer:<id>' per buyer.
CREATE TABLE oauth_clients (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('dynamic', 'buyer')),
  buyer_id TEXT REFERENCES buyers(id) ON DELETE SET NULL,
  name TEXT,
  redirect_uris TEXT NOT NULL DEFAULT '[]',
  metadata TEXT NOT NULL DEFAULT '{}',
  secret_hash TEXT,
  email TEXT,
  registered_from TEXT,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX oauth_clients_by_buyer ON oauth_clients (buyer_id);
CREATE INDEX oauth_clients_by_origin ON oauth_clients (registered_from, created_at);

CREATE TABLE oauth_codes (
  code_hash TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  resource TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  scope TEXT NOT NULL DEFAULT '',
  email TEXT,
  family_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  created_at INTEGER NOT NULL
);

-- Access and refresh tokens; a family is everything issued from one authorization code.
CREATE TABLE oauth_tokens (
  token_hash TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  resource TEXT NOT NULL,
  scope TEXT NOT NULL DEFAULT '',
  family_id TEXT NOT NULL,
  grant_expires_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  revoked_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX oauth_tokens_by_family ON oauth_tokens (family_id);

CREATE TABLE mcp_sessions (
  id TEXT PRIMARY KEY,
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  identity TEXT NOT NULL,
  client_id TEXT,
  protocol_version TEXT NOT NULL,
  client_info TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  ended_at INTEGER
);
CREATE INDEX mcp_sessions_by_publisher ON mcp_sessions (publisher_id, last_seen_at);

CREATE TABLE a2a_tasks (
  id TEXT PRIMARY KEY,
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  context_id TEXT NOT NULL,
  identity TEXT NOT NULL,
  state TEXT NOT NULL,
  document TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX a2a_tasks_by_publisher ON a2a_tasks (publisher_id, created_at);

-- Licenses: standard subscriptions, enterprise terms and approved license requests.
CREATE TABLE licenses (
  id TEXT PRIMARY KEY,
  buyer_id TEXT NOT NULL REFERENCES buyers(id) ON DELETE CASCADE,
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('subscription', 'enterprise', 'request')),
  use_cases TEXT NOT NULL,
  monthly_fee_micros INTEGER NOT NULL DEFAULT 0 CHECK (monthly_fee_micros >= 0),
  state TEXT NOT NULL CHECK (state IN ('pending', 'active', 'canceled')),
  checkout_session_id TEXT UNIQUE,
  terms TEXT,
  created_at INTEGER NOT NULL,
  activated_at INTEGER,
  canceled_at INTEGER
);
CREATE INDEX licenses_by_buyer ON licenses (buyer_id, publisher_id, state);
CREATE INDEX licenses_by_publisher ON licenses (publisher_id, state);

CREATE TABLE license_requests (
  id TEXT PRIMARY KEY,
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  buyer_id TEXT REFERENCES buyers(id) ON DELETE SET NULL,
  identity TEXT NOT NULL,
  use_case TEXT NOT NULL,
  enterprise INTEGER NOT NULL DEFAULT 0,
  message TEXT NOT NULL,
  contact TEXT,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'denied')),
  license_id TEXT REFERENCES licenses(id) ON DELETE SET NULL,
  decided_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX license_requests_by_publisher ON license_requests (publisher_id, state, created_at);

-- The ledger: one row per charge, price snapshotted at read time. month is 'YYYY-MM' (UTC).
CREATE TABLE charges (
  id TEXT PRIMARY KEY,
  buyer_id TEXT NOT NULL REFERENCES buyers(id),
  publisher_id TEXT NOT NULL REFERENCES publishers(id),
  article_id TEXT,
  license_id TEXT,
  use_case TEXT,
  kind TEXT NOT NULL CHECK (kind IN ('metered', 'landing', 'subscription', 'adjustment')),
  price_micros INTEGER NOT NULL,
  fee_micros INTEGER NOT NULL DEFAULT 0,
  month TEXT NOT NULL,
  idempotency_key TEXT,
  request_hash TEXT,
  identity TEXT NOT NULL,
  surface TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (buyer_id, idempotency_key)
);
CREATE INDEX charges_by_buyer_month ON charges (buyer_id, month, publisher_id);
CREATE INDEX charges_by_publisher_month ON charges (publisher_id, month);

-- Running metered spend per buyer, publisher and month: the row the cap check updates.
CREATE TABLE monthly_spend (
  buyer_id TEXT NOT NULL,
  publisher_id TEXT NOT NULL,
  month TEXT NOT NULL,
  metered_micros INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (buyer_id, publisher_id, month)
);

-- Paywall meter for identities that are not buyers.
CREATE TABLE meters (
  publisher_id TEXT NOT NULL,
  identity TEXT NOT NULL,
  month TEXT NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (publisher_id, identity, month)
);

CREATE TABLE statements (
  id TEXT PRIMARY KEY,
  buyer_id TEXT NOT NULL REFERENCES buyers(id),
  month TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'closed')),
  total_micros INTEGER NOT NULL DEFAULT 0,
  document TEXT NOT NULL,
  closed_at INTEGER,
  UNIQUE (buyer_id, month)
);

CREATE TABLE payouts (
  id TEXT PRIMARY KEY,
  publisher_id TEXT NOT NULL REFERENCES publishers(id),
  month TEXT NOT NULL,
  amount_micros INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'paid')),
  created_at INTEGER NOT NULL,
  UNIQUE (publisher_id, month)
);

CREATE TABLE payment_events (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  received_at INTEGER NOT NULL
);

-- Operational record (docs/SPEC.md "Events"): every MCP, REST, A2A, landing and NLWeb request.
CREATE TABLE call_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  publisher_id TEXT,
  at INTEGER NOT NULL,
  surface TEXT NOT NULL,
  tool TEXT NOT NULL,
  user_agent TEXT NOT NULL DEFAULT '',
  latency_ms REAL NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('ok', 'error', 'trace')),
  http_status INTEGER,
  identity TEXT,
  request_id TEXT
);
CREATE INDEX call_log_by_publisher ON call_log (publisher_id, id DESC);
CREATE INDEX call_log_by_time ON call_log (at, surface);

CREATE TABLE reader_intents (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  publisher_id TEXT NOT NULL,
  article_id TEXT NOT NULL,
  prompt TEXT NOT NULL,
  identity TEXT,
  surface TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX reader_intents_by_publisher ON reader_intents (publisher_id, at DESC);

CREATE TABLE probes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  surface TEXT NOT NULL,
  ok INTEGER NOT NULL,
  latency_ms REAL NOT NULL,
  detail TEXT
);
CREATE INDEX probes_by_time ON probes (at);

CREATE TABLE cron_leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
