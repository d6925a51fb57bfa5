-- Issue 38: the audit log (docs/decisions/operator.md). Every operator action and every
-- money-moving action of anyone appends one row: who (actor kind and id), what (action, subject
-- kind and id), when, the state before and after (JSON) and the reason given. Append-only is
-- enforced here, not by convention: an UPDATE or DELETE raises, so no code path can rewrite it.
CREATE TABLE audit_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  actor_kind TEXT NOT NULL CHECK (actor_kind IN ('operator', 'publisher', 'buyer', 'system', 'stripe')),
  actor_id TEXT NOT NULL,
  action TEXT NOT NULL,
  subject_kind TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  before_json TEXT,
  after_json TEXT,
  reason TEXT
);
CREATE INDEX audit_log_by_time ON audit_log (at, seq);
CREATE INDEX audit_log_by_actor ON audit_log (actor_kind, actor_id, at);
CREATE INDEX audit_log_by_subject ON audit_log (subject_kind, subject_id, at);
CREATE INDEX audit_log_by_action ON audit_log (action, at);

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
-- INSERT OR REPLACE deletes the row it replaces without firing DELETE triggers (recursive
-- triggers are off), so an insert naming an existing seq is refused too.
CREATE TRIGGER audit_log_no_replace BEFORE INSERT ON audit_log
WHEN EXISTS (SELECT 1 FROM audit_log WHERE seq = NEW.seq)
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
