-- Issue 28: failed sign-ins slow down one (client address, account) pair instead of locking the
-- account for everyone (the per-email counter of 0003 let anyone lock the owner out with ten
-- wrong passwords). `failures` is the count as of `counted_at` and decays by one per quiet period;
-- no attempt of the pair is checked before `retry_at` (server/platform/throttle.ts SIGN_IN). The key holds
-- the address and a hash of the email or account id, never the email itself.
CREATE TABLE sign_in_failures (
  key TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  counted_at INTEGER NOT NULL,
  retry_at INTEGER NOT NULL
);
CREATE INDEX sign_in_failures_by_time ON sign_in_failures (counted_at);
