-- Search asks of up to a few hundred articles per query whether each may be searched (published,
-- not BLOCKED, a chapter of a book that grants rag: search/eligible.ts). Those columns come after
-- `body` in the row (policy and kind in 0001, unpublished_at added by 0010), so each answer walked
-- the body's overflow pages; this index holds them beside the id, and the check reads no row.
CREATE INDEX articles_eligibility ON articles (id, publisher_id, unpublished_at, policy, kind, book_id);
