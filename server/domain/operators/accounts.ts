/**
 * Operator accounts and sign-in (docs/decisions/operator.md). Signing in takes two steps: the
 * password opens a `password`-stage session that can do nothing but pass the second factor (or
 * enrol one, on the first sign-in); the TOTP code or a recovery code makes it `full`. Every
 * failure of a step is the same 401, and the throttle in front of each (server/platform/throttle.ts)
 * slows guessing. Each step that changes who can sign in is audited in the same transaction.
 */
import { inWriteTx } from "../../../store/db.ts";
import type { Client, Executor } from "../../../store/db.ts";
import { newId } from "../../../store/ids.ts";
import {
  clearTotp,
  confirmTotp,
  deleteOperatorSession,
  findOperatorByEmail,
  getOperator,
  insertOperator,
  insertOperatorSession,
  type Operator,
  operatorsByEmail,
  type OperatorSession,
  promoteOperatorSession,
  replaceRecoveryCodes,
  setFreshCodes,
  setOperatorPassword,
  setPendingTotp,
  takeFreshCodes,
  takeTotpStep,
  useRecoveryCode,
} from "../../../store/operators.ts";
import { AppError } from "../../platform/errors.ts";
import { seal, unseal } from "../../platform/sealed.ts";
import { hashSecret, newSecret, randomBase62 } from "../../platform/secrets.ts";
import { burnPasswordCheck, hashPassword, verifyPassword } from "../accounts/passwords.ts";
import { type Actor, audit } from "../audit/audit.ts";
import type { ResetAccounts } from "../accounts/password_reset.ts";
import type { Clock } from "../../platform/clock.ts";
import {
  enrolmentOf,
  newRecoveryCodes,
  newTotpSecret,
  recoveryCodeHash,
  totpStep,
} from "./second_factor.ts";

/** The operator session cookie (its own, so a publisher's or buyer's cookie never stands for it). */
export const OPERATOR_SESSION_COOKIE = "folio_operator_session";
/** Prefix of operator keys (`opk_...`) and of session tokens. */
export const OPERATOR_KEY_PREFIX = "opk";
const SESSION_PREFIX = "fos";
/** A full session lasts 12 hours (absolute); the password step alone 10 minutes. */
export const SESSION_TTL_MS = 12 * 3_600_000;
export const PASSWORD_STAGE_TTL_MS = 10 * 60_000;

/** The one 401 for a failed password or second-factor step. */
export function invalidSignIn(what: "password" | "code"): AppError {
  return new AppError(
    401,
    "invalid_credentials",
    what === "password" ? "The email or password is incorrect" : "The code is incorrect or used",
    {},
    what === "code" ? "code" : undefined,
  );
}

/** The operator as an audit actor. */
export function operatorActor(operatorId: string): Actor {
  return { kind: "operator", id: operatorId };
}

/** The CLI (`deno task folio create-operator`), as an audit actor. */
export const CLI: Actor = { kind: "system", id: "cli" };

/** Creates an operator with this email; a random password (shown once) unless one is given. */
export async function createOperator(
  db: Client,
  input: { email: string; password?: string },
  options: { now: Date; actor: Actor },
): Promise<{ operator: Operator; password: string }> {
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) {
    throw new AppError(400, "invalid_request", "email: is not an email address", {}, "email");
  }
  const password = input.password ?? randomBase62(20);
  const passwordHash = await hashPassword(password);
  const id = newId("op");
  return await inWriteTx(db, async (tx) => {
    if (!(await insertOperator(tx, { id, email, passwordHash, now: options.now }))) {
      throw new AppError(
        409,
        "email_taken",
        `email: an operator with ${email} exists`,
        {},
        "email",
      );
    }
    await audit(tx, {
      actor: options.actor,
      action: "operator.created",
      subject: { kind: "operator", id },
      after: { email },
      now: options.now,
    });
    return { operator: (await getOperator(tx, id))!, password };
  });
}

/** A new password (the CLI's reset); every session of the operator ends. */
export async function resetOperatorPassword(
  db: Client,
  operator: Operator,
  options: { now: Date; actor: Actor },
): Promise<string> {
  const password = randomBase62(20);
  const hash = await hashPassword(password);
  await inWriteTx(db, async (tx) => {
    await setOperatorPassword(tx, operator.id, hash);
    await audit(tx, {
      actor: options.actor,
      action: "operator.password_reset",
      subject: { kind: "operator", id: operator.id },
      now: options.now,
    });
  });
  return password;
}

/**
 * Operators for "Forgot password" (server/domain/accounts/password_reset.ts): a link sets a new
 * password and ends every session, audited; the second factor still stands, so a stolen inbox
 * alone does not sign anyone in.
 */
export function operatorResetAccounts(clock: Clock): ResetAccounts {
  return {
    kind: "operator",
    ownerKind: "operator",
    portalName: "Folio operator console",
    resetPage: "/operator/reset",
    byEmail: operatorsByEmail,
    async setPassword(tx, accountId, passwordHash) {
      await setOperatorPassword(tx, accountId, passwordHash);
      await audit(tx, {
        actor: operatorActor(accountId),
        action: "operator.password_reset",
        subject: { kind: "operator", id: accountId },
        after: { via: "reset_link" },
        now: clock.now(),
      });
    },
  };
}

/** Removes the second factor (a lost device; the CLI): the next sign-in enrols again. */
export async function resetOperatorTotp(
  db: Client,
  operator: Operator,
  options: { now: Date; actor: Actor },
): Promise<void> {
  await inWriteTx(db, async (tx) => {
    await clearTotp(tx, operator.id);
    await audit(tx, {
      actor: options.actor,
      action: "operator.totp_reset",
      subject: { kind: "operator", id: operator.id },
      now: options.now,
    });
  });
}

/** A session just opened: the cookie token (never stored) and the CSRF token. */
export interface OpenedSession {
  operatorId: string;
  token: string;
  csrfToken: string;
  expiresAt: number;
  /** What the operator does next: pass the second factor, or enrol one. */
  next: "second_factor" | "enrol";
}

/** The password step: a `password`-stage session, or the one 401. */
export async function signInWithPassword(
  db: Client,
  input: { email: string; password: string },
  options: { now: Date },
): Promise<OpenedSession> {
  const operator = await findOperatorByEmail(db, input.email);
  const ok = operator
    ? await verifyPassword(input.password, operator.passwordHash)
    : await burnPasswordCheck(input.password);
  if (!operator || !ok) throw invalidSignIn("password");
  const token = newSecret(SESSION_PREFIX);
  const csrfToken = randomBase62(32);
  const expiresAt = options.now.getTime() + PASSWORD_STAGE_TTL_MS;
  await insertOperatorSession(db, {
    tokenHash: await hashSecret(token),
    operatorId: operator.id,
    csrfToken,
    stage: "password",
    expiresAt,
    now: options.now,
  });
  const next = operator.totpSecret ? "second_factor" : "enrol";
  return { operatorId: operator.id, token, csrfToken, expiresAt, next };
}

/**
 * The second step: a TOTP code (once per step) or an unused recovery code makes the session
 * full. The sign-in is audited, and a recovery code's use on its own.
 */
export async function passSecondFactor(
  db: Client,
  session: OperatorSession,
  input: { code?: string; recoveryCode?: string },
  options: { now: Date },
): Promise<{ expiresAt: number; recoveryCodesLeft?: number }> {
  const now = options.now;
  return await inWriteTx(db, async (tx) => {
    const operator = await getOperator(tx, session.operatorId);
    if (!operator?.totpSecret) throw invalidSignIn("code");
    const actor = operatorActor(operator.id);
    const subject = { kind: "operator", id: operator.id };
    let via: "totp" | "recovery_code";
    if (input.recoveryCode !== undefined) {
      const used = await useRecoveryCode(
        tx,
        operator.id,
        await recoveryCodeHash(input.recoveryCode),
        now,
      );
      if (!used) throw invalidSignIn("code");
      via = "recovery_code";
      await audit(tx, { actor, action: "operator.recovery_code_used", subject, now });
    } else {
      const step = totpStep(operator.totpSecret, input.code ?? "", now);
      if (step === null || !(await takeTotpStep(tx, operator.id, step))) {
        throw invalidSignIn("code");
      }
      via = "totp";
    }
    const expiresAt = now.getTime() + SESSION_TTL_MS;
    await promoteOperatorSession(tx, session.tokenHash, expiresAt);
    await audit(tx, { actor, action: "operator.signed_in", subject, after: { via }, now });
    return { expiresAt };
  });
}

/** Enrolment's first half: the secret to add to an authenticator (the same one until confirmed). */
export async function startEnrolment(db: Client, operator: Operator) {
  if (operator.totpSecret) {
    throw new AppError(409, "already_enrolled", "This operator has a second factor already");
  }
  const secret = operator.totpPending ?? newTotpSecret();
  if (!operator.totpPending) await setPendingTotp(db, operator.id, secret);
  return await enrolmentOf(secret, operator.email);
}

/**
 * Enrolment's second half: a code from the new authenticator confirms it; ten recovery codes are
 * made (stored hashed), and the session becomes full. The codes are returned once; with a cookie
 * `token` they are also sealed on the session under it, for the page to show once after its
 * redirect (`takeRecoveryCodes`).
 */
export async function confirmEnrolment(
  db: Client,
  session: OperatorSession & { token: string },
  code: string,
  options: { now: Date },
): Promise<{ recoveryCodes: string[]; expiresAt: number }> {
  const now = options.now;
  const { codes, hashes } = await newRecoveryCodes();
  return await inWriteTx(db, async (tx) => {
    const operator = await getOperator(tx, session.operatorId);
    if (!operator || operator.totpSecret) {
      throw new AppError(409, "already_enrolled", "This operator has a second factor already");
    }
    const step = operator.totpPending ? totpStep(operator.totpPending, code, now) : null;
    if (step === null || !(await confirmTotp(tx, operator.id, step, now))) {
      throw invalidSignIn("code");
    }
    await replaceRecoveryCodes(tx, operator.id, hashes, now);
    const expiresAt = now.getTime() + SESSION_TTL_MS;
    await promoteOperatorSession(tx, session.tokenHash, expiresAt);
    await setFreshCodes(tx, session.tokenHash, await sealCodes(codes, session.token));
    const actor = operatorActor(operator.id);
    const subject = { kind: "operator", id: operator.id };
    await audit(tx, { actor, action: "operator.totp_enrolled", subject, now });
    await audit(tx, {
      actor,
      action: "operator.signed_in",
      subject,
      after: { via: "enrolment" },
      now,
    });
    return { recoveryCodes: codes, expiresAt };
  });
}

/** New recovery codes in place of the old ones (which stop working); sealed as at enrolment. */
export async function regenerateRecoveryCodes(
  db: Client,
  operatorId: string,
  session: { tokenHash: string; token: string } | null,
  options: { now: Date },
): Promise<string[]> {
  const { codes, hashes } = await newRecoveryCodes();
  await inWriteTx(db, async (tx) => {
    await replaceRecoveryCodes(tx, operatorId, hashes, options.now);
    if (session) await setFreshCodes(tx, session.tokenHash, await sealCodes(codes, session.token));
    await audit(tx, {
      actor: operatorActor(operatorId),
      action: "operator.recovery_codes_regenerated",
      subject: { kind: "operator", id: operatorId },
      now: options.now,
    });
  });
  return codes;
}

/** The recovery codes just made on this session, once; null after the first time. */
export async function takeRecoveryCodes(
  db: Executor,
  session: { tokenHash: string; token: string },
): Promise<string[] | null> {
  const sealed = await takeFreshCodes(db, session.tokenHash);
  if (!sealed) return null;
  // Sealed under another session's token cannot happen (the row is this session's); a store
  // edited by hand reads as nothing to show.
  const text = await unseal(sealed, session.token, "operator recovery codes").catch(() => null);
  return text ? JSON.parse(text) as string[] : null;
}

/** Ends the session with this cookie token, if there is one. */
export async function signOutOperator(db: Client, token: string): Promise<void> {
  await deleteOperatorSession(db, await hashSecret(token));
}

function sealCodes(codes: string[], token: string): Promise<string> {
  return seal(JSON.stringify(codes), token, "operator recovery codes");
}
