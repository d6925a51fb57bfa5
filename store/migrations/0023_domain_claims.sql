-- A custom domain is served only once its owner proves it (issue 28): a DNS TXT record or an HTTP
-- token. publishers.custom_domain stays the domain that routes (still UNIQUE, so verified domains
-- only); claims live here, one per publisher. Several publishers may wait on one domain; the first
-- to prove it takes it and the others' claims are released with a note.
CREATE TABLE domain_claims (
  publisher_id TEXT PRIMARY KEY REFERENCES publishers(id) ON DELETE CASCADE,
  domain TEXT NOT NULL COLLATE NOCASE,
  token TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'verified', 'released')),
  -- How it was proven: dns, http, trusted (FOLIO_TRUSTED_DOMAINS); null while pending.
  method TEXT,
  created_at INTEGER NOT NULL,
  checked_at INTEGER,
  -- The last check's or the release's sentence, shown to the publisher.
  note TEXT
);
CREATE UNIQUE INDEX domain_claims_verified ON domain_claims (domain) WHERE state = 'verified';
CREATE INDEX domain_claims_pending ON domain_claims (domain) WHERE state = 'pending';

-- Domains claimed before proof was asked for must be proven too: they stop routing and wait as
-- pending claims (trusted names are verified again as the service starts, server/runtime.ts).
INSERT INTO domain_claims (publisher_id, domain, token, state, created_at, note)
  SELECT id, custom_domain, lower(hex(randomblob(16))), 'pending', updated_at,
    'Claimed before Folio asked for proof: add the record below to keep serving this domain.'
  FROM publishers WHERE custom_domain IS NOT NULL;
UPDATE publishers SET custom_domain = NULL WHERE custom_domain IS NOT NULL;
