-- Per-IP (and per-email) attempt counters for sign-up and login (docs/TEST-PLAN.md 5.10). Kept in the
-- store, not in memory, so every node behind a load balancer shares one budget (docs/DESIGN.md §9).
-- One row per key: a fixed window that restarts when the stored window has passed.
CREATE TABLE auth_throttle (
  key TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL
);
CREATE INDEX auth_throttle_by_window ON auth_throttle (window_start);
