/** Persistence of reader intents: the end user's prompt behind each read, verbatim. */
import type { Client } from "./db.ts";

/** Records one reader intent. */
export async function insertIntent(
  db: Client,
  publisherId: string,
  intent: { articleId: string; prompt: string; identity: string; surface: string; now: Date },
): Promise<void> {
  await db.execute({
    sql: `INSERT INTO reader_intents (publisher_id, article_id, prompt, identity, surface, at)
          VALUES (?, ?, ?, ?, ?, ?)`,
    args: [
      publisherId,
      intent.articleId,
      intent.prompt,
      intent.identity,
      intent.surface,
      intent.now.getTime(),
    ],
  });
}

/** The publisher's most recent reader intents, newest first. */
export async function recentIntents(
  db: Client,
  publisherId: string,
  options: { limit: number },
): Promise<
  { articleId: string; prompt: string; surface: string; at: string; identity: string | null }[]
> {
  const rs = await db.execute({
    sql: `SELECT article_id, prompt, surface, at, identity FROM reader_intents
          WHERE publisher_id = ? ORDER BY id DESC LIMIT ?`,
    args: [publisherId, options.limit],
  });
  return rs.rows.map((r) => ({
    articleId: String(r.article_id),
    prompt: String(r.prompt),
    surface: String(r.surface),
    at: new Date(Number(r.at)).toISOString(),
    identity: r.identity === null ? null : String(r.identity),
  }));
}
