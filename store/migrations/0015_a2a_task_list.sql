-- ListTasks (server/surfaces/a2a/list_tasks.ts): a caller's tasks at one publisher, most recently updated
-- first, with the id breaking ties so that page tokens are stable.
CREATE INDEX a2a_tasks_by_owner ON a2a_tasks (publisher_id, identity, updated_at DESC, id DESC);
