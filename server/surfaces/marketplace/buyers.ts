/** Buyer accounts and keys: shared by the marketplace API and the admin CLI. */
import { insertBuyer, replaceBuyerKey } from "../../../store/buyers.ts";
import type { Client } from "../../../store/db.ts";
import { newId } from "../../../store/ids.ts";
import { AppError } from "../../platform/errors.ts";
import { hashPassword } from "../../domain/accounts/passwords.ts";
import { hashSecret, hint, newSecret } from "../../platform/secrets.ts";
import { parseInput } from "../../platform/validate.ts";
import { buyerSchema } from "./schemas.ts";

/**
 * Creates a buyer with its `mk_` key (returned once), its virtual client `buyer:<id>` and, when
 * given (already checked by the API's signup schema), its portal password; the name and email are
 * checked by the signup schema, whoever calls (the API or the admin CLI).
 */
export async function createBuyer(
  db: Client,
  input: { name: string; email: string; password?: string },
  options: { now: Date },
): Promise<{ buyerId: string; apiKey: string }> {
  const { name, email } = parseInput(buyerSchema, input);
  const buyerId = newId("buy");
  const apiKey = newSecret("mk");
  try {
    const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
    await insertBuyer(db, { id: buyerId, name, email, passwordHash }, {
      id: newId("bkey"),
      hash: await hashSecret(apiKey),
      hint: hint(apiKey),
      now: options.now,
    });
  } catch (err) {
    // The store's one-account-per-email index (migration 0011), raced or not.
    if (String(err).includes("buyers.email")) throw buyerEmailTaken();
    throw err;
  }
  return { buyerId, apiKey };
}

/** 409 for a second buyer account with an email that already has one. */
function buyerEmailTaken(): AppError {
  return new AppError(409, "email_taken", "email: a buyer account with this email already exists");
}

/**
 * Revokes the buyer's key and returns a new one; the old key fails on the very next request.
 * Portal sessions belong to the account, not to a key, so they survive; but the ones a key opened
 * (anyone holding the old key could have) end, except `keepSession` (the hash of the session
 * asking, if one is): a leaked key cannot leave a session behind.
 */
export async function rotateBuyerKey(
  db: Client,
  buyerId: string,
  options: { now: Date; keepSession?: string | null },
): Promise<string> {
  const apiKey = newSecret("mk");
  await replaceBuyerKey(db, buyerId, {
    id: newId("bkey"),
    hash: await hashSecret(apiKey),
    hint: hint(apiKey),
    now: options.now,
  }, { keepSession: options.keepSession });
  return apiKey;
}
