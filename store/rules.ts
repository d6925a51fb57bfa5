/** Persistence of a publisher's content rules. Prices are stored in micros. */
import type { Client } from "./db.ts";
import type { ContentRule } from "./vocabulary.ts";

/** A publisher's rules, lowest priority number first. */
export async function listRules(db: Client, publisherId: string): Promise<ContentRule[]> {
  const rs = await db.execute({
    sql: "SELECT * FROM content_rules WHERE publisher_id = ? ORDER BY priority, id",
    args: [publisherId],
  });
  return rs.rows.map((r) => ({
    id: String(r.id),
    priority: Number(r.priority),
    match: JSON.parse(String(r.match)),
    action: JSON.parse(String(r.action)),
  }));
}

/** Inserts a rule. */
export async function insertRule(
  db: Client,
  publisherId: string,
  rule: ContentRule & { now: Date },
): Promise<void> {
  await db.execute({
    sql: `INSERT INTO content_rules (id, publisher_id, priority, match, action, created_at)
          VALUES (?, ?, ?, ?, ?, ?)`,
    args: [
      rule.id,
      publisherId,
      rule.priority,
      JSON.stringify(rule.match),
      JSON.stringify(rule.action),
      rule.now.getTime(),
    ],
  });
}

/** Replaces a rule's priority, match and action; false when it is not the publisher's. */
export async function updateRule(
  db: Client,
  publisherId: string,
  rule: ContentRule,
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE content_rules SET priority = ?, match = ?, action = ?
          WHERE publisher_id = ? AND id = ?`,
    args: [
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
  const r = rs.rows[0];
  return r
    ? {
      id: String(r.id),
      priority: Number(r.priority),
      match: JSON.parse(String(r.match)),
      action: JSON.parse(String(r.action)),
    }
    : null;
}

/** How many rules the publisher has. */
export async function countRules(db: Client, publisherId: string): Promise<number> {
  const rs = await db.execute({
    sql: "SELECT COUNT(*) AS n FROM content_rules WHERE publisher_id = ?",
    args: [publisherId],
  });
  return Number(rs.rows[0].n);
}
