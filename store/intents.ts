/** Persistence of reader intents: the end user's prompt behind each read, verbatim. */
import type { InStatement } from "@libsql/client";
import type { Client } from "./db.ts";
import { multiRowInserts } from "./multi_row.ts";

/** One reader intent: the end user's prompt behind a read, verbatim. */
export interface IntentEntry {
  publisherId: string;
  articleId: string;
  prompt: string;
  identity: string;
  surface: string;
  at: Date;
}

/** The statements that record `entries` (the call log writes them with its batch). */
export function intentInserts(entries: IntentEntry[]): InStatement[] {
  return multiRowInserts(
    "reader_intents",
    ["publisher_id", "article_id", "prompt", "identity", "surface", "at"],
    entries.map((
      e,
    ) => [e.publisherId, e.articleId, e.prompt, e.identity, e.surface, e.at.getTime()]),
  );
}

/** Records one reader intent at once. */
export async function insertIntent(
  db: Client,
  publisherId: string,
  intent: { articleId: string; prompt: string; identity: string; surface: string; now: Date },
): Promise<void> {
  await db.execute(intentInserts([{ ...intent, publisherId, at: intent.now }])[0]);
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
