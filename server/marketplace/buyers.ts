/** Buyer accounts and keys: shared by the marketplace API and the admin CLI. */
import { insertBuyer, replaceBuyerKey } from "../../store/buyers.ts";
import type { Client } from "../../store/db.ts";
import { newId } from "../../store/ids.ts";
import { AppError } from "../errors.ts";
import { hashSecret, hint, newSecret } from "../secrets.ts";
import { parseInput } from "../validate.ts";
import { buyerSchema } from "./schemas.ts";

/**
 * Creates a buyer with its `mk_` key (returned once) and its virtual client `buyer:<id>`; the name
 * and email are checked by the signup schema, whoever calls (the API or the admin CLI).
 */
export async function createBuyer(
  db: Client,
  input: { name: string; email: string },
  options: { now: Date },
): Promise<{ buyerId: string; apiKey: string }> {
  const { name, email } = parseInput(buyerSchema, input);
  const buyerId = newId("buy");
  const apiKey = newSecret("mk");
  try {
    await insertBuyer(db, { id: buyerId, name, email }, {
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

/** Revokes the buyer's key and returns a new one; the old key fails on the very next request. */
export async function rotateBuyerKey(
  db: Client,
  buyerId: string,
  options: { now: Date },
): Promise<string> {
  const apiKey = newSecret("mk");
  await replaceBuyerKey(db, buyerId, {
    id: newId("bkey"),
    hash: await hashSecret(apiKey),
    hint: hint(apiKey),
    now: options.now,
  });
  return apiKey;
}
