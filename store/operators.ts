/**
 * Persistence of operators (docs/decisions/operator.md): accounts, their sessions, recovery codes
 * and keys. Every secret is stored as a hash; functions taking an `Executor` run inside the
 * caller's write transaction (`inWriteTx`, store/db.ts), so the audit row goes with the change.
 */
import type { Row } from "@libsql/client";
import type { Client, Executor } from "./db.ts";
import type { ResettableAccount } from "./password_resets.ts";

/** An operator account. */
export interface Operator {
  id: string;
  email: string;
  /** Self-describing PBKDF2 hash (server/domain/accounts/passwords.ts). */
  passwordHash: string;
  /** The confirmed TOTP secret (base32), or null before enrolment. */
  totpSecret: string | null;
  /** A secret shown for enrolment, not yet confirmed by a code. */
  totpPending: string | null;
  totpEnabledAt: number | null;
  /** The last 30-second step a code was accepted for (replays are refused). */
  totpLastStep: number;
  createdAt: number;
}

const COLUMNS = `id, email, password_hash, totp_secret, totp_pending, totp_enabled_at,
  totp_last_step, created_at`;

function operatorOf(r: Row): Operator {
  return {
    id: String(r.id),
    email: String(r.email),
    passwordHash: String(r.password_hash),
    totpSecret: r.totp_secret === null ? null : String(r.totp_secret),
    totpPending: r.totp_pending === null ? null : String(r.totp_pending),
    totpEnabledAt: r.totp_enabled_at === null ? null : Number(r.totp_enabled_at),
    totpLastStep: Number(r.totp_last_step),
    createdAt: Number(r.created_at),
  };
}

/** Stores a new operator; false when the email is taken. */
export async function insertOperator(
  db: Executor,
  o: { id: string; email: string; passwordHash: string; now: Date },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `INSERT INTO operators (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)
          ON CONFLICT (email) DO NOTHING`,
    args: [o.id, o.email.toLowerCase(), o.passwordHash, o.now.getTime()],
  });
  return rs.rowsAffected === 1;
}

/** The operator with this id, or null. */
export async function getOperator(db: Executor, id: string): Promise<Operator | null> {
  const rs = await db.execute({ sql: `SELECT ${COLUMNS} FROM operators WHERE id = ?`, args: [id] });
  return rs.rows[0] ? operatorOf(rs.rows[0]) : null;
}

/** The operator with this email (case-insensitive), or null. */
export async function findOperatorByEmail(db: Executor, email: string): Promise<Operator | null> {
  const rs = await db.execute({
    sql: `SELECT ${COLUMNS} FROM operators WHERE email = ?`,
    args: [email.trim().toLowerCase()],
  });
  return rs.rows[0] ? operatorOf(rs.rows[0]) : null;
}

/** The operator with this email as a password reset reaches it (none or one). */
export async function operatorsByEmail(db: Client, email: string): Promise<ResettableAccount[]> {
  const op = await findOperatorByEmail(db, email);
  return op ? [{ accountId: op.id, ownerId: op.id, email: op.email }] : [];
}

/** Every operator, oldest first. */
export async function listOperators(db: Client): Promise<Operator[]> {
  const rs = await db.execute(`SELECT ${COLUMNS} FROM operators ORDER BY created_at, id`);
  return rs.rows.map(operatorOf);
}

/** How many operators the node has (the start banner asks). */
export async function countOperators(db: Client): Promise<number> {
  const rs = await db.execute("SELECT COUNT(*) AS n FROM operators");
  return Number(rs.rows[0].n);
}

/** A new password hash; every session of the operator ends. */
export async function setOperatorPassword(
  db: Executor,
  id: string,
  passwordHash: string,
): Promise<void> {
  await db.execute({
    sql: "UPDATE operators SET password_hash = ? WHERE id = ?",
    args: [passwordHash, id],
  });
  await db.execute({ sql: "DELETE FROM operator_sessions WHERE operator_id = ?", args: [id] });
}

/** Keeps a secret for enrolment (replacing an earlier unconfirmed one). */
export async function setPendingTotp(db: Executor, id: string, secret: string): Promise<void> {
  await db.execute({
    sql: "UPDATE operators SET totp_pending = ? WHERE id = ?",
    args: [secret, id],
  });
}

/** The pending secret becomes the operator's second factor, `step` its first accepted code. */
export async function confirmTotp(
  db: Executor,
  id: string,
  step: number,
  now: Date,
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE operators SET totp_secret = totp_pending, totp_pending = NULL,
            totp_enabled_at = ?, totp_last_step = ?
          WHERE id = ? AND totp_pending IS NOT NULL`,
    args: [now.getTime(), step, id],
  });
  return rs.rowsAffected === 1;
}

/** Removes the second factor (the admin CLI, for a lost device); enrolment starts again. */
export async function clearTotp(db: Executor, id: string): Promise<void> {
  await db.execute({
    sql: `UPDATE operators SET totp_secret = NULL, totp_pending = NULL, totp_enabled_at = NULL,
            totp_last_step = 0 WHERE id = ?`,
    args: [id],
  });
  await db.execute({
    sql: "DELETE FROM operator_recovery_codes WHERE operator_id = ?",
    args: [id],
  });
  await db.execute({ sql: "DELETE FROM operator_sessions WHERE operator_id = ?", args: [id] });
}

/**
 * Takes the code of `step`: true only when no code of this step or a later one was accepted
 * before, so two requests racing with one code cannot both pass.
 */
export async function takeTotpStep(db: Executor, id: string, step: number): Promise<boolean> {
  const rs = await db.execute({
    sql: "UPDATE operators SET totp_last_step = ? WHERE id = ? AND totp_last_step < ?",
    args: [step, id, step],
  });
  return rs.rowsAffected === 1;
}

/** Replaces the operator's recovery codes with these hashes. */
export async function replaceRecoveryCodes(
  db: Executor,
  id: string,
  hashes: string[],
  now: Date,
): Promise<void> {
  await db.execute({
    sql: "DELETE FROM operator_recovery_codes WHERE operator_id = ?",
    args: [id],
  });
  for (const hash of hashes) {
    await db.execute({
      sql: `INSERT INTO operator_recovery_codes (code_hash, operator_id, created_at)
            VALUES (?, ?, ?)`,
      args: [hash, id, now.getTime()],
    });
  }
}

/** Uses a recovery code once: true when it was the operator's and unused. */
export async function useRecoveryCode(
  db: Executor,
  id: string,
  hash: string,
  now: Date,
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE operator_recovery_codes SET used_at = ?
          WHERE code_hash = ? AND operator_id = ? AND used_at IS NULL`,
    args: [now.getTime(), hash, id],
  });
  return rs.rowsAffected === 1;
}

/** How many unused recovery codes the operator has left. */
export async function recoveryCodesLeft(db: Executor, id: string): Promise<number> {
  const rs = await db.execute({
    sql: `SELECT COUNT(*) AS n FROM operator_recovery_codes
          WHERE operator_id = ? AND used_at IS NULL`,
    args: [id],
  });
  return Number(rs.rows[0].n);
}

/** A live operator session. */
export interface OperatorSession {
  tokenHash: string;
  operatorId: string;
  csrfToken: string;
  stage: "password" | "full";
  freshCodes: string | null;
  expiresAt: number;
}

/** Stores a new session under the hash of its cookie token. */
export async function insertOperatorSession(
  db: Executor,
  s: Omit<OperatorSession, "freshCodes"> & { now: Date },
): Promise<void> {
  await db.execute({
    sql: `INSERT INTO operator_sessions (token_hash, operator_id, csrf_token, stage, created_at,
            expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
    args: [s.tokenHash, s.operatorId, s.csrfToken, s.stage, s.now.getTime(), s.expiresAt],
  });
}

/** The unexpired session with this token hash. */
export async function findOperatorSession(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<OperatorSession | null> {
  const rs = await db.execute({
    sql: `SELECT operator_id, csrf_token, stage, fresh_codes, expires_at FROM operator_sessions
          WHERE token_hash = ? AND expires_at > ?`,
    args: [tokenHash, now.getTime()],
  });
  const r = rs.rows[0];
  return r
    ? {
      tokenHash,
      operatorId: String(r.operator_id),
      csrfToken: String(r.csrf_token),
      stage: String(r.stage) as OperatorSession["stage"],
      freshCodes: r.fresh_codes === null ? null : String(r.fresh_codes),
      expiresAt: Number(r.expires_at),
    }
    : null;
}

/** The second factor passed: the session becomes full, until `expiresAt`. */
export async function promoteOperatorSession(
  db: Executor,
  tokenHash: string,
  expiresAt: number,
): Promise<void> {
  await db.execute({
    sql: "UPDATE operator_sessions SET stage = 'full', expires_at = ? WHERE token_hash = ?",
    args: [expiresAt, tokenHash],
  });
}

/** Keeps (or, with null, drops) the sealed recovery codes shown once on this session. */
export async function setFreshCodes(
  db: Executor,
  tokenHash: string,
  sealed: string | null,
): Promise<void> {
  await db.execute({
    sql: "UPDATE operator_sessions SET fresh_codes = ? WHERE token_hash = ?",
    args: [sealed, tokenHash],
  });
}

/** Takes the sealed recovery codes of a session, once (a second taker finds none). */
export async function takeFreshCodes(db: Executor, tokenHash: string): Promise<string | null> {
  const rs = await db.execute({
    sql: "SELECT fresh_codes FROM operator_sessions WHERE token_hash = ?",
    args: [tokenHash],
  });
  const sealed = rs.rows[0]?.fresh_codes;
  if (sealed === null || sealed === undefined) return null;
  const taken = await db.execute({
    sql: "UPDATE operator_sessions SET fresh_codes = NULL WHERE token_hash = ? AND fresh_codes = ?",
    args: [tokenHash, sealed],
  });
  return taken.rowsAffected === 1 ? String(sealed) : null;
}

/** Ends a session. */
export async function deleteOperatorSession(db: Executor, tokenHash: string): Promise<void> {
  await db.execute({
    sql: "DELETE FROM operator_sessions WHERE token_hash = ?",
    args: [tokenHash],
  });
}

/** An operator key as listed (never the key). */
export interface OperatorKey {
  id: string;
  operatorId: string;
  name: string;
  hint: string;
  createdAt: number;
  revokedAt: number | null;
}

/** Stores a new key's hash. */
export async function insertOperatorKey(
  db: Executor,
  k: Omit<OperatorKey, "revokedAt" | "createdAt"> & { keyHash: string; now: Date },
): Promise<void> {
  await db.execute({
    sql: `INSERT INTO operator_keys (id, operator_id, name, key_hash, hint, created_at)
          VALUES (?, ?, ?, ?, ?, ?)`,
    args: [k.id, k.operatorId, k.name, k.keyHash, k.hint, k.now.getTime()],
  });
}

/** The operator a live (unrevoked) key belongs to, and the key's id. */
export async function findOperatorKey(
  db: Executor,
  keyHash: string,
): Promise<{ keyId: string; operatorId: string } | null> {
  const rs = await db.execute({
    sql: "SELECT id, operator_id FROM operator_keys WHERE key_hash = ? AND revoked_at IS NULL",
    args: [keyHash],
  });
  const r = rs.rows[0];
  return r ? { keyId: String(r.id), operatorId: String(r.operator_id) } : null;
}

function keyOf(r: Row): OperatorKey {
  return {
    id: String(r.id),
    operatorId: String(r.operator_id),
    name: String(r.name),
    hint: String(r.hint),
    createdAt: Number(r.created_at),
    revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
  };
}

/** Every key of every operator, newest first (revoked ones too: they stay listed). */
export async function listOperatorKeys(db: Executor): Promise<OperatorKey[]> {
  const rs = await db.execute(
    `SELECT id, operator_id, name, hint, created_at, revoked_at FROM operator_keys
     ORDER BY created_at DESC, id`,
  );
  return rs.rows.map(keyOf);
}

/** One key by id. */
export async function getOperatorKey(db: Executor, id: string): Promise<OperatorKey | null> {
  const rs = await db.execute({
    sql: `SELECT id, operator_id, name, hint, created_at, revoked_at FROM operator_keys
          WHERE id = ?`,
    args: [id],
  });
  return rs.rows[0] ? keyOf(rs.rows[0]) : null;
}

/** Revokes a key; false when it was revoked already. */
export async function revokeOperatorKey(db: Executor, id: string, now: Date): Promise<boolean> {
  const rs = await db.execute({
    sql: "UPDATE operator_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
    args: [now.getTime(), id],
  });
  return rs.rowsAffected === 1;
}
