-- One buyer account per email (issue 12). Stores from before may hold duplicates; the first
-- account of each email keeps `sole = 1`, later duplicates get NULL and stay as they are, and the
-- partial unique index refuses every new duplicate (new rows default to 1).
ALTER TABLE buyers ADD COLUMN sole INTEGER DEFAULT 1;
UPDATE buyers SET sole = NULL
  WHERE rowid NOT IN (SELECT MIN(rowid) FROM buyers GROUP BY email COLLATE NOCASE);
CREATE UNIQUE INDEX buyers_one_per_email ON buyers (email COLLATE NOCASE) WHERE sole = 1;
