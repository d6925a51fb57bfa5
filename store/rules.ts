/** Persistence of a publisher's content rules. Prices are stored in micros. */
import { type Client, inWriteTx } from "./db.ts";
import { cachedConfig } from "./config_cache.ts";
import type { ContentRule } from "./vocabulary.ts";

/**
 * A publisher's rules, lowest priority number first; `db` may be the request's `readView()`,
 * sparing a second configuration-version read (store/config_cache.ts).
 */
export function listRules(
  db: Client,
  publisherId: string,
): Promise<ContentRule[]> {
  return cachedConfig(db, `rules:${publisherId}`, async () => {
    const rs = await db.execute({
      sql: "SELECT * FROM content_rules WHERE publisher_id = ? ORDER BY priority, id",
      args: [publisherId],
    });
    return rs.rows.map(toRule);
  });
}

/** Inserts a rule. */
export async function insertRule(
  db: Client,
  publisherId: string,
  rule: ContentRule & { now: Date },
): Promise<void> {
  await db.execute({
    sql: `INSERT INTO content_rules (id, publisher_id, name, priority, match, action, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?)`,
    args: [
      rule.id,
      publisherId,
      rule.name ?? null,
      rule.priority,
      JSON.stringify(rule.match),
      JSON.stringify(rule.action),
      rule.now.getTime(),
    ],
  });
}

/** Replaces a rule's name, priority, match and action; false when it is not the publisher's. */
export async function updateRule(
  db: Client,
  publisherId: string,
  rule: ContentRule,
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE content_rules SET name = ?, priority = ?, match = ?, action = ?
          WHERE publisher_id = ? AND id = ?`,
    args: [
      rule.name ?? null,
      rule.priority,
      JSON.stringify(rule.match),
      JSON.stringify(rule.action),
      publisherId,
      rule.id,
    ],
  });
  return rs.rowsAffected > 0;
}

/** Deletes a rule; false when it is not the publisher's. */
export async function deleteRule(db: Client, publisherId: string, id: string): Promise<boolean> {
  const rs = await db.execute({
    sql: "DELETE FROM content_rules WHERE publisher_id = ? AND id = ?",
    args: [publisherId, id],
  });
  return rs.rowsAffected > 0;
}

/** One of the publisher's rules, or null (also when the id is another publisher's). */
export async function getRule(
  db: Client,
  publisherId: string,
  id: string,
): Promise<ContentRule | null> {
  const rs = await db.execute({
    sql: "SELECT * FROM content_rules WHERE publisher_id = ? AND id = ?",
    args: [publisherId, id],
  });
  return rs.rows[0] ? toRule(rs.rows[0]) : null;
}

/** How many rules the publisher has. */
export async function countRules(db: Client, publisherId: string): Promise<number> {
  const rs = await db.execute({
    sql: "SELECT COUNT(*) AS n FROM content_rules WHERE publisher_id = ?",
    args: [publisherId],
  });
  return Number(rs.rows[0].n);
}

/**
 * Gives the publisher's rules the order of `ids` (priorities 10, 20, 30, ...) in one write
 * transaction, but only when `ids` are exactly the publisher's rule ids; otherwise changes nothing
 * and returns the ids the publisher has, so the caller can say what differs.
 */
export function reorderRules(
  db: Client,
  publisherId: string,
  ids: readonly string[],
): Promise<{ ok: true } | { ok: false; current: string[] }> {
  return inWriteTx(db, async (tx) => {
    const rs = await tx.execute({
      sql: "SELECT id FROM content_rules WHERE publisher_id = ? ORDER BY priority, id",
      args: [publisherId],
    });
    const current = rs.rows.map((r) => String(r.id));
    const wanted = new Set(ids);
    if (current.length !== wanted.size || current.some((id) => !wanted.has(id))) {
      return { ok: false, current };
    }
    for (const [i, id] of ids.entries()) {
      await tx.execute({
        sql: "UPDATE content_rules SET priority = ? WHERE publisher_id = ? AND id = ?",
        args: [(i + 1) * 10, publisherId, id],
      });
    }
    return { ok: true };
  });
}

// deno-lint-ignore no-explicit-any
function toRule(r: any): ContentRule {
  return {
    id: String(r.id),
    ...(r.name === null || r.name === undefined ? {} : { name: String(r.name) }),
    priority: Number(r.priority),
    match: JSON.parse(String(r.match)),
    action: JSON.parse(String(r.action)),
  };
}
