/**
 * Dashboard sign-in: password check and sessions (the throttle is server/platform/throttle.ts). Session tokens are
 * 190-bit secrets stored only as SHA-256 hashes (store/sessions.ts); every failure to sign in is
 * the same 401, whether the email is unknown or the password wrong.
 */
import { deleteSession, insertSession } from "../../../store/sessions.ts";
import { findUserByEmail, publisherUser, setUserPassword } from "../../../store/users.ts";
import type { Client } from "../../../store/db.ts";
import { AppError } from "../../platform/errors.ts";
import { hashSecret, newSecret, randomBase62 } from "../../platform/secrets.ts";
import { burnPasswordCheck, hashPassword, verifyPassword } from "./passwords.ts";

/** How long a dashboard session lasts (absolute, not sliding). */
export const SESSION_TTL_MS = 7 * 24 * 3_600_000;

/** Sign-ups allowed per address and window (docs/TEST-PLAN.md 5.10); sign-ins: server/platform/throttle.ts. */
export const LIMITS = {
  signupPerIp: { limit: 10, windowMs: 3_600_000 },
} as const;

/** A new session: the cookie token (shown once) and the CSRF token the dashboard echoes back. */
export interface NewSession {
  publisherId: string;
  token: string;
  csrfToken: string;
  expiresAt: number;
}

/** The one 401 for a failed sign-in. */
export function invalidCredentials(): AppError {
  return new AppError(401, "invalid_credentials", "The email or password is incorrect");
}

/** Checks an email and password and opens a session, or throws the one 401. */
export async function logIn(
  db: Client,
  input: { email: string; password: string },
  options: { now: Date },
): Promise<NewSession> {
  const user = await findUserByEmail(db, input.email.trim());
  const ok = user
    ? await verifyPassword(input.password, user.passwordHash)
    : await burnPasswordCheck(input.password);
  if (!user || !ok) throw invalidCredentials();
  const token = newSecret("fs");
  const csrfToken = randomBase62(32);
  const expiresAt = options.now.getTime() + SESSION_TTL_MS;
  await insertSession(db, await hashSecret(token), {
    publisherId: user.publisherId,
    userId: user.id,
    csrfToken,
    expiresAt,
    now: options.now,
  });
  return { publisherId: user.publisherId, token, csrfToken, expiresAt };
}

/**
 * Changes a dashboard password: the session's user's, or with a key (`session` null) the
 * publisher's owner's. The current password must match (401, and nothing changes); the user's
 * other sessions end, the one asking stays signed in.
 */
export async function changePassword(
  db: Client,
  publisherId: string,
  session: { userId: string; tokenHash: string } | null,
  input: { currentPassword: string; password: string },
): Promise<void> {
  const user = await publisherUser(db, publisherId, session?.userId ?? null);
  if (!user) {
    throw new AppError(409, "no_password", "password: this publisher has no console sign-in");
  }
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    throw new AppError(
      401,
      "invalid_credentials",
      "currentPassword: is incorrect",
      {},
      "currentPassword",
    );
  }
  await setUserPassword(db, user, await hashPassword(input.password), {
    keepSession: session?.tokenHash ?? null,
  });
}

/** Ends the session with this cookie token, if there is one. */
export async function logOut(db: Client, token: string): Promise<void> {
  await deleteSession(db, await hashSecret(token));
}

/** The attributes of a session cookie (publisher dashboard and buyer portal alike). */
export function sessionCookieOptions(config: { baseUrl: string }, maxAgeSeconds: number) {
  return {
    path: "/",
    httpOnly: true,
    sameSite: "Lax" as const,
    secure: config.baseUrl.startsWith("https:"),
    maxAge: maxAgeSeconds,
  };
}
