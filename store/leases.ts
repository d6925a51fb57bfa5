/**
 * Cron leases (docs/DESIGN.md section 8): every node runs every cron, and a lease row in the store makes
 * one of them do the work. Taking a lease is one conditional upsert, so two nodes racing for it
 * cannot both win; a holder that dies loses the lease when it expires.
 */
import type { Client } from "./db.ts";

/** Who asks for the lease, for how long, and when. */
export interface LeaseOptions {
  /** A name unique to this node (and run), e.g. `node-<pid>-<random>`. */
  holder: string;
  ttlMs: number;
  now: Date;
}

/** Runs `fn` if this holder gets the lease `name`; `ran` is false when another holder has it. */
export async function withLease<T>(
  db: Client,
  name: string,
  options: LeaseOptions,
  fn: () => Promise<T>,
): Promise<{ ran: true; result: T } | { ran: false }> {
  const now = options.now.getTime();
  const taken = await db.execute({
    sql: `INSERT INTO cron_leases (name, holder, expires_at) VALUES (?, ?, ?)
          ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
          WHERE cron_leases.expires_at <= ? OR cron_leases.holder = excluded.holder`,
    args: [name, options.holder, now + options.ttlMs, now],
  });
  if (taken.rowsAffected === 0) return { ran: false };
  try {
    return { ran: true, result: await fn() };
  } finally {
    // Release only our own lease; if it expired and someone else took it, leave theirs alone.
    await db.execute({
      sql: "DELETE FROM cron_leases WHERE name = ? AND holder = ?",
      args: [name, options.holder],
    });
  }
}
