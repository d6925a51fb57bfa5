-- The management operations of issue 11 (part 2).

-- A rule's name, for people: the management API, explain and the public terms page show it.
ALTER TABLE content_rules ADD COLUMN name TEXT;
