/** Creating publishers and their API keys: shared by signup, the admin CLI and the seed. */
import type { Client } from "../../store/db.ts";
import { newId } from "../../store/ids.ts";
import {
  addPublisherKey,
  findPublisherByDomain,
  findPublisherBySlug,
  insertPublisher,
  type Publisher,
} from "../../store/publishers.ts";
import { AppError, invalid } from "../errors.ts";
import { hashSecret, hint, newSecret } from "../secrets.ts";
import { hasControlChars, isEmail, isHostname, isSlug } from "../validate.ts";

/** What a new publisher account needs. */
export interface NewPublisherAccount {
  name: string;
  slug: string;
  email?: string | null;
  customDomain?: string | null;
}

/** Creates a publisher and its first `pk_` key, returned once (only its hash is stored). */
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
  if (input.email && !isEmail(input.email)) throw invalid("email", "is not an email address");
  const domain = input.customDomain?.trim().toLowerCase() || null;
  if (domain && !isHostname(domain)) throw invalid("customDomain", "is not a host name");
  if (await findPublisherBySlug(db, slug)) {
    throw new AppError(409, "slug_taken", `slug: "${slug}" is already taken`);
  }
  if (domain && await findPublisherByDomain(db, domain)) {
    throw new AppError(409, "domain_taken", `customDomain: "${domain}" is already in use`);
  }
  const publisher = await insertPublisher(db, {
    id: newId("pub"),
    slug,
    name,
    email: input.email ?? null,
    customDomain: domain,
  }, options);
  const apiKey = await issuePublisherKey(db, publisher.id, options);
  return { publisher, apiKey };
}

/** Issues a new `pk_` key for a publisher and returns it (the only time it is visible). */
export async function issuePublisherKey(
  db: Client,
  publisherId: string,
  options: { now: Date },
): Promise<string> {
  const apiKey = newSecret("pk");
  await addPublisherKey(db, publisherId, {
    id: newId("pkey"),
    hash: await hashSecret(apiKey),
    hint: hint(apiKey),
    now: options.now,
  });
  return apiKey;
}
