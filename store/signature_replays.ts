/**
 * Web Bot Auth signatures seen (server/domain/crawlers/signature_replay.ts): a signature's replay key is
 * held until the signature expires, so a second use is refused by every process on the store.
 */
import type { Client } from "./db.ts";

/**
 * How long past its expiry a row is kept: a node whose clock runs behind by up to this much still
 * refuses the replay instead of finding the row pruned (server/domain/crawlers/web_bot_auth.ts allows a
 * signer the same skew).
 */
export const REPLAY_PRUNE_MARGIN_MS = 60_000;

/**
 * Expired rows deleted by one write at most: more than the one row it adds, so the table drains,
 * yet a backlog (after a quiet spell) never lands on one request.
 */
export const REPLAY_PRUNE_BATCH = 100;

/**
 * Records the first use of `replayKey` (valid until `expiresAt`) in one write; false when it was
 * already used and is still live. A row whose signature expired is taken over (a nonce reused
 * after its first signature expired), and up to REPLAY_PRUNE_BATCH rows expired for longer than
 * the margin are pruned in the same transaction.
 */
export async function firstUseOfSignature(
  db: Client,
  replayKey: string,
  options: { expiresAt: Date; now: Date },
): Promise<boolean> {
  const now = options.now.getTime();
  const [, inserted] = await db.batch([
    {
      sql: `DELETE FROM signature_replays WHERE replay_key IN (
              SELECT replay_key FROM signature_replays WHERE expires_at <= ? LIMIT ?)`,
      args: [now - REPLAY_PRUNE_MARGIN_MS, REPLAY_PRUNE_BATCH],
    },
    {
      sql: `INSERT INTO signature_replays (replay_key, expires_at) VALUES (?, ?)
            ON CONFLICT (replay_key) DO UPDATE SET expires_at = excluded.expires_at
            WHERE signature_replays.expires_at <= ?`,
      args: [replayKey, options.expiresAt.getTime(), now],
    },
  ], "write");
  return inserted.rowsAffected === 1;
}
