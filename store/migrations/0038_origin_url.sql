-- Issue 33: the reverse-proxy mode. A publisher with no proxy of its own points its domain at
-- Folio and names its origin here; Folio gates crawlers and forwards allowed requests to it
-- (server/surfaces/landing/origin_proxy.ts). NULL: Folio's own pages answer the domain.
ALTER TABLE publishers ADD COLUMN origin_url TEXT;
