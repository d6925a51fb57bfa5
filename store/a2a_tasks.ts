/**
 * Persistence of A2A tasks (docs/SPEC.md "A2A server"). A task belongs to one publisher and one caller
 * identity; every query takes both, so a task id alone never reaches another caller's task.
 * `document` is the task in A2A v1.0 JSON form; `state` mirrors its status for queries.
 */
import type { Row } from "@libsql/client";
import type { Client } from "./db.ts";

/** One stored task. */
export interface A2aTaskRow {
  id: string;
  contextId: string;
  state: string;
  /** The task as A2A v1.0 JSON (ProtoJSON). */
  document: unknown;
  createdAt: number;
  updatedAt: number;
}

/** Who owns a task: the publisher it was sent to and the caller's identity. */
export interface TaskOwner {
  identity: string;
}

/** The task with this id, if `owner` created it at this publisher. */
export async function findA2aTask(
  db: Client,
  publisherId: string,
  query: TaskOwner & { id: string },
): Promise<A2aTaskRow | null> {
  const rs = await db.execute({
    sql: `SELECT id, context_id, state, document, created_at, updated_at FROM a2a_tasks
          WHERE publisher_id = ? AND identity = ? AND id = ?`,
    args: [publisherId, query.identity, query.id],
  });
  const r = rs.rows[0];
  return r ? taskRow(r) : null;
}

function taskRow(r: Row): A2aTaskRow {
  return {
    id: String(r.id),
    contextId: String(r.context_id),
    state: String(r.state),
    document: JSON.parse(String(r.document)),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/**
 * Inserts or updates a task. An update only touches a row of the same publisher and identity, and
 * only while its state is still `expectState` (a compare-and-set, so a concurrent writer on another
 * node cannot be overwritten by a stale transition). Returns false when nothing was written.
 */
export async function saveA2aTask(
  db: Client,
  publisherId: string,
  task: TaskOwner & {
    id: string;
    contextId: string;
    state: string;
    document: unknown;
    /** The state the stored row must have; null when the task is new. */
    expectState: string | null;
    now: Date;
  },
): Promise<boolean> {
  const doc = JSON.stringify(task.document);
  const now = task.now.getTime();
  if (task.expectState === null) {
    const rs = await db.execute({
      sql: `INSERT INTO a2a_tasks (id, publisher_id, context_id, identity, state, document,
              created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
      args: [task.id, publisherId, task.contextId, task.identity, task.state, doc, now, now],
    });
    return rs.rowsAffected > 0;
  }
  const rs = await db.execute({
    sql: `UPDATE a2a_tasks SET state = ?, document = ?, updated_at = ?
          WHERE publisher_id = ? AND identity = ? AND id = ? AND state = ?`,
    args: [task.state, doc, now, publisherId, task.identity, task.id, task.expectState],
  });
  return rs.rowsAffected > 0;
}

/** Filters and position of one page of a caller's tasks (newest update first, then id). */
export interface TaskListQuery extends TaskOwner {
  contextId: string | null;
  state: string | null;
  /** Only tasks updated at or after this instant (ms). */
  updatedSince: number | null;
  /** The last task of the previous page. */
  after: { updatedAt: number; id: string } | null;
  limit: number;
}

/**
 * One page of `owner`'s tasks at this publisher, most recently updated first, and how many match
 * the filters in all (pages aside).
 */
export async function listA2aTasks(
  db: Client,
  publisherId: string,
  q: TaskListQuery,
): Promise<{ rows: A2aTaskRow[]; total: number }> {
  const conditions: [string, string | number | null][] = [
    ["publisher_id = ?", publisherId],
    ["identity = ?", q.identity],
    ["context_id = ?", q.contextId],
    ["state = ?", q.state],
    ["updated_at >= ?", q.updatedSince],
  ];
  const used = conditions.filter(([, v]) => v !== null) as [string, string | number][];
  const filters = used.map(([sql]) => sql).join(" AND ");
  const args = used.map(([, v]) => v);
  const page = q.after
    ? {
      sql: `${filters} AND (updated_at < ? OR (updated_at = ? AND id < ?))`,
      args: [...args, q.after.updatedAt, q.after.updatedAt, q.after.id],
    }
    : { sql: filters, args };
  const [rs, count] = await db.batch([
    {
      sql: `SELECT id, context_id, state, document, created_at, updated_at FROM a2a_tasks
            WHERE ${page.sql} ORDER BY updated_at DESC, id DESC LIMIT ?`,
      args: [...page.args, q.limit],
    },
    { sql: `SELECT COUNT(*) AS n FROM a2a_tasks WHERE ${filters}`, args },
  ], "read");
  return { rows: rs.rows.map(taskRow), total: Number(count.rows[0].n) };
}

/** Counts a publisher's tasks by state (for tests and the dashboard). */
export async function countA2aTasks(
  db: Client,
  publisherId: string,
): Promise<Record<string, number>> {
  const rs = await db.execute({
    sql: "SELECT state, COUNT(*) AS n FROM a2a_tasks WHERE publisher_id = ? GROUP BY state",
    args: [publisherId],
  });
  return Object.fromEntries(rs.rows.map((r) => [String(r.state), Number(r.n)]));
}
