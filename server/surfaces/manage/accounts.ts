/** Creating publishers and their API keys: shared by signup, the admin CLI and the seed. */
import type { InStatement } from "@libsql/client";
import type { Client } from "../../../store/db.ts";
import { newId } from "../../../store/ids.ts";
import {
  addPublisherKey,
  findPublisherByDomain,
  findPublisherBySlug,
  type Publisher,
  publisherInsert,
  publisherKeyInsert,
  replacePublisherKey,
} from "../../../store/publishers.ts";
import { findUserByEmail, userInsert } from "../../../store/users.ts";
import { AppError, invalid } from "../../platform/errors.ts";
import { hashSecret, hint, newSecret } from "../../platform/secrets.ts";
import { asciiHostname, hasControlChars, isEmail, isSlug } from "../../platform/validate.ts";

/** What a new publisher account needs. */
export interface NewPublisherAccount {
  name: string;
  slug: string;
  email?: string | null;
  customDomain?: string | null;
  /** The first dashboard user; its password arrives already hashed (server/domain/accounts/passwords.ts). */
  owner?: { email: string; passwordHash: string } | null;
}

/**
 * Creates a publisher, its first `pk_` key (returned once; only its hash is stored) and, when
 * given, its first dashboard user, all in one write so that a failure leaves nothing behind.
 */
export async function createPublisherAccount(
  db: Client,
  input: NewPublisherAccount,
  options: { now: Date },
): Promise<{ publisher: Publisher; apiKey: string }> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 120 || hasControlChars(name)) {
    throw invalid("name", "must be 1 to 120 characters without control characters");
  }
  const slug = input.slug.trim().toLowerCase();
  if (!isSlug(slug)) {
    throw invalid("slug", "must be 2 to 40 lower-case letters, digits or inner hyphens");
  }
  const email = input.email?.trim().toLowerCase() || null;
  if (email && !isEmail(email)) throw invalid("email", "is not an email address");
  const named = input.customDomain?.trim() || null;
  const domain = named && asciiHostname(named);
  if (named && !domain) throw invalid("customDomain", "is not a host name");
  if (await findPublisherBySlug(db, slug)) throw slugTaken(slug);
  if (domain && await findPublisherByDomain(db, domain)) throw domainTaken(domain);
  if (input.owner && await findUserByEmail(db, input.owner.email)) throw emailTaken();
  const { publisher, statement } = publisherInsert({
    id: newId("pub"),
    slug,
    name,
    email,
    customDomain: domain,
  }, options);
  const apiKey = newSecret("pk");
  const statements: InStatement[] = [
    statement,
    publisherKeyInsert(publisher.id, await keyRecord(apiKey, options.now)),
  ];
  if (input.owner) {
    statements.push(userInsert({
      id: newId("usr"),
      publisherId: publisher.id,
      email: input.owner.email,
      passwordHash: input.owner.passwordHash,
    }, options));
  }
  try {
    await db.batch(statements, "write");
  } catch (err) {
    // Two sign-ups racing for the same slug, domain or email: the store's UNIQUE decides.
    const text = String(err);
    if (text.includes("publishers.slug")) throw slugTaken(slug);
    if (text.includes("publishers.custom_domain")) throw domainTaken(domain ?? "");
    if (text.includes("publisher_users.email")) throw emailTaken();
    throw err;
  }
  return { publisher, apiKey };
}

/** Issues a new `pk_` key for a publisher and returns it (the only time it is visible). */
export async function issuePublisherKey(
  db: Client,
  publisherId: string,
  options: { now: Date },
): Promise<string> {
  const apiKey = newSecret("pk");
  await addPublisherKey(db, publisherId, await keyRecord(apiKey, options.now));
  return apiKey;
}

/**
 * Replaces the publisher's keys with a new `pk_` key and returns it (the only time it is visible):
 * every earlier key stops working at once, and so does every dashboard session but `keepSession`
 * (the hash of the session asking; none when a key or the admin CLI rotates), since whoever held
 * the old key may also have signed in (issue 28, as a buyer's rotation does).
 */
export async function rotatePublisherKey(
  db: Client,
  publisherId: string,
  options: { now: Date; keepSession?: string | null },
): Promise<string> {
  const apiKey = newSecret("pk");
  await replacePublisherKey(db, publisherId, await keyRecord(apiKey, options.now), {
    keepSession: options.keepSession ?? null,
  });
  return apiKey;
}

/** 409 for a custom domain another publisher has verified (and serves). */
export function domainTaken(domain: string): AppError {
  return new AppError(
    409,
    "domain_taken",
    `customDomain: "${domain}" is already in use: another publisher has verified it`,
  );
}

async function keyRecord(apiKey: string, now: Date) {
  return { id: newId("pkey"), hash: await hashSecret(apiKey), hint: hint(apiKey), now };
}

function slugTaken(slug: string): AppError {
  return new AppError(409, "slug_taken", `slug: "${slug}" is already taken`);
}

function emailTaken(): AppError {
  return new AppError(409, "email_taken", "email: an account with this email already exists");
}
