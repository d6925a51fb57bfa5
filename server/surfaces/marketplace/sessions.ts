/**
 * Buyer portal sign-in (issue 12 part 2): by email and password, or by the API key, into a session
 * of 7 days (absolute, like the dashboard's: server/domain/accounts/login.ts) whose cookie token is stored
 * only as a hash (store/buyer_sessions.ts). Every failure to sign in is the same 401, whether the
 * email is unknown, the account has no password, the password is wrong or the key is bad.
 */
import { buyerPasswordHash, buyersWithPassword, setBuyerPassword } from "../../../store/buyers.ts";
import type { Buyer } from "../../../store/buyers.ts";
import { insertBuyerSession, type SessionVia } from "../../../store/buyer_sessions.ts";
import type { Client } from "../../../store/db.ts";
import { AppError, invalid } from "../../platform/errors.ts";
import { liveBuyer } from "../../platform/identity.ts";
import { invalidCredentials, SESSION_TTL_MS } from "../../domain/accounts/login.ts";
import {
  burnPasswordCheck,
  hashPassword,
  verifyPassword,
} from "../../domain/accounts/passwords.ts";
import { hashSecret, newSecret, randomBase62 } from "../../platform/secrets.ts";

/** A session just opened: the cookie token (only here in the clear) and its CSRF token. */
export interface NewBuyerSession {
  buyer: Buyer;
  token: string;
  csrfToken: string;
  expiresAt: number;
}

/** Checks the credentials and opens a session, or throws the one 401. */
export async function openBuyerSession(
  db: Client,
  input: { email: string; password: string } | { apiKey: string },
  options: { now: Date },
): Promise<NewBuyerSession> {
  let buyer: Buyer | null;
  let via: SessionVia;
  if ("apiKey" in input) {
    buyer = await liveBuyer(db, input.apiKey.trim());
    via = "key";
  } else {
    buyer = await buyerByPassword(db, input.email.trim(), input.password);
    via = "password";
  }
  if (!buyer) throw invalidCredentials();
  const token = newSecret("bs");
  const csrfToken = randomBase62(32);
  const expiresAt = options.now.getTime() + SESSION_TTL_MS;
  await insertBuyerSession(db, {
    tokenHash: await hashSecret(token),
    buyerId: buyer.id,
    csrfToken,
    via,
    expiresAt,
    now: options.now,
  });
  return { buyer, token, csrfToken, expiresAt };
}

/**
 * The account of this email whose password this is. Accounts that shared an email before
 * migration 0011 may both have one, so each is tried; an email without any spends the same time.
 */
async function buyerByPassword(db: Client, email: string, password: string) {
  const candidates = await buyersWithPassword(db, email);
  if (candidates.length === 0) {
    await burnPasswordCheck(password);
    return null;
  }
  for (const c of candidates) {
    if (await verifyPassword(password, c.passwordHash)) return c.buyer;
  }
  return null;
}

/**
 * Sets or changes the buyer's password. Changing one needs the current password (400 without it,
 * 401 when wrong); every other session of the account ends, the one asking (`keepSession`, the
 * hash of its token) stays signed in.
 */
export async function changeBuyerPassword(
  db: Client,
  buyerId: string,
  input: { password: string; currentPassword?: string },
  options: { keepSession: string | null },
): Promise<void> {
  const current = await buyerPasswordHash(db, buyerId);
  if (current !== null) {
    if (input.currentPassword === undefined) {
      throw invalid("currentPassword", "is required to change a password that is set");
    }
    if (!(await verifyPassword(input.currentPassword, current))) {
      throw new AppError(
        401,
        "invalid_credentials",
        "currentPassword: is incorrect",
        {},
        "currentPassword",
      );
    }
  }
  await setBuyerPassword(db, buyerId, await hashPassword(input.password), options);
}
