/** Persistence of the receipt signing keys (migration 0031). */
import type { Client } from "./db.ts";

/** A signing key as stored: the public JWK, and the private one as written (maybe encrypted). */
export interface ReceiptKeyRow {
  kid: string;
  publicJwk: string;
  privateJwk: string;
  createdAt: number;
  retiredAt: number | null;
}

/** Adds `key` as the signing key and retires every other one (they stay, for verification). */
export async function addReceiptKey(db: Client, key: ReceiptKeyRow): Promise<void> {
  await db.batch([
    {
      sql: `INSERT INTO receipt_keys (kid, public_jwk, private_jwk, created_at)
            VALUES (?, ?, ?, ?)`,
      args: [key.kid, key.publicJwk, key.privateJwk, key.createdAt],
    },
    {
      sql: "UPDATE receipt_keys SET retired_at = ? WHERE kid != ? AND retired_at IS NULL",
      args: [key.createdAt, key.kid],
    },
  ], "write");
}

/** The key that signs: the newest not retired (null before the first). */
export async function signingReceiptKey(db: Client): Promise<ReceiptKeyRow | null> {
  const rs = await db.execute(
    `SELECT * FROM receipt_keys WHERE retired_at IS NULL
     ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  );
  return rs.rows[0] ? rowOf(rs.rows[0]) : null;
}

/** Every key, newest first: the public halves make the JWKS. */
export async function listReceiptKeys(db: Client): Promise<ReceiptKeyRow[]> {
  const rs = await db.execute("SELECT * FROM receipt_keys ORDER BY created_at DESC, rowid DESC");
  return rs.rows.map(rowOf);
}

function rowOf(r: Record<string, unknown>): ReceiptKeyRow {
  return {
    kid: String(r.kid),
    publicJwk: String(r.public_jwk),
    privateJwk: String(r.private_jwk),
    createdAt: Number(r.created_at),
    retiredAt: r.retired_at === null ? null : Number(r.retired_at),
  };
}
