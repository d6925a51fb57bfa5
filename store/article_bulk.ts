/**
 * Changes to many of a publisher's articles at once, and the policy and price new articles get
 * (issue 34: "a default policy for new articles and bulk edits of policy and price"). A bulk
 * change is one UPDATE: it changes all the articles named or none.
 */
import type { Client } from "./db.ts";
import type { Policy } from "./vocabulary.ts";

/** A policy and/or price override to set; an absent field is left as it is. */
export interface ArticleChange {
  policy?: Policy;
  /** null clears the override (the publisher's per-use prices apply). */
  priceMicros?: number | null;
}

/** The condition of the articles a change would alter (IS NOT: NULL prices compare as values). */
function differs(change: ArticleChange): { sql: string; args: (string | number | null)[] } {
  const parts: string[] = [];
  const args: (string | number | null)[] = [];
  if (change.policy !== undefined) {
    parts.push("policy IS NOT ?");
    args.push(change.policy);
  }
  if (change.priceMicros !== undefined) {
    parts.push("price_micros IS NOT ?");
    args.push(change.priceMicros);
  }
  return { sql: parts.length ? `(${parts.join(" OR ")})` : "0", args };
}

/** Which of `ids` are the publisher's articles. */
export async function knownArticleIds(
  db: Client,
  publisherId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  const rs = await db.execute({
    sql:
      `SELECT id FROM articles WHERE publisher_id = ? AND id IN (SELECT value FROM json_each(?))`,
    args: [publisherId, JSON.stringify(ids)],
  });
  return new Set(rs.rows.map((r) => String(r.id)));
}

/** Of the publisher's articles `ids`, those `change` would alter. */
export async function articlesChangedBy(
  db: Client,
  publisherId: string,
  ids: readonly string[],
  change: ArticleChange,
): Promise<string[]> {
  const d = differs(change);
  const rs = await db.execute({
    sql: `SELECT id FROM articles WHERE publisher_id = ? AND id IN (SELECT value FROM json_each(?))
          AND ${d.sql}`,
    args: [publisherId, JSON.stringify(ids), ...d.args],
  });
  return rs.rows.map((r) => String(r.id));
}

/** Applies `change` to the publisher's articles `ids` in one statement; returns how many changed. */
export async function changeArticles(
  db: Client,
  publisherId: string,
  ids: readonly string[],
  change: ArticleChange & { now: Date },
): Promise<number> {
  const d = differs(change);
  const rs = await db.execute({
    sql: `UPDATE articles SET policy = COALESCE(?, policy),
            price_micros = CASE WHEN ? THEN ? ELSE price_micros END, updated_at = ?
          WHERE publisher_id = ? AND id IN (SELECT value FROM json_each(?)) AND ${d.sql}`,
    args: [
      change.policy ?? null,
      change.priceMicros !== undefined,
      change.priceMicros ?? null,
      change.now.getTime(),
      publisherId,
      JSON.stringify(ids),
      ...d.args,
    ],
  });
  return rs.rowsAffected;
}

/** The policy and price override a new article gets when its source names none. */
export interface ArticleDefaults {
  policy: Policy;
  priceMicros: number | null;
}

/** The publisher's defaults for new articles (OBSERVE and no override until set). */
export async function articleDefaults(db: Client, publisherId: string): Promise<ArticleDefaults> {
  const rs = await db.execute({
    sql: "SELECT default_policy, default_price_micros FROM publishers WHERE id = ?",
    args: [publisherId],
  });
  const r = rs.rows[0];
  return {
    policy: (r ? String(r.default_policy) : "OBSERVE") as Policy,
    priceMicros: r?.default_price_micros == null ? null : Number(r.default_price_micros),
  };
}

/** Sets the publisher's defaults for new articles; existing articles keep theirs. */
export async function setArticleDefaults(
  db: Client,
  publisherId: string,
  defaults: ArticleDefaults,
): Promise<void> {
  await db.execute({
    sql: "UPDATE publishers SET default_policy = ?, default_price_micros = ? WHERE id = ?",
    args: [defaults.policy, defaults.priceMicros, publisherId],
  });
}
