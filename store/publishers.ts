/** Persistence of publishers, their settings and their API keys. */
import type { InStatement } from "@libsql/client";
import type { Client } from "./db.ts";
import { cachedConfig } from "./config_cache.ts";
import { endSessionsStatement } from "./sessions.ts";
import type { Rights, UseCase, UsePrices } from "./vocabulary.ts";

/** Feature switches a publisher turns on and off (docs/DESIGN.md section 4). */
export interface Toggles {
  publicRest: boolean;
  a2a: boolean;
  mcpApps: boolean;
  requireAuth: boolean;
  consentScreen: boolean;
  subscriptionLinking: boolean;
}

export interface Branding {
  logoUrl: string | null;
  primaryColor: string | null;
  font: string | null;
}

/** Terms a publisher offers for enterprise licensing through the request_license workflow. */
export interface EnterpriseTerms {
  useCases: UseCase[];
  monthlyPriceMicros: number;
  conditions: string;
}

/** What the landing path does with a crawler: serve it by the policy, charge it for every page, or refuse it. */
export type CrawlerAction = "allow" | "charge" | "block";

/**
 * Agent payments on the publisher's host (docs/SPEC.md "Agent payments"): whether crawlers pay
 * there, per-crawler actions by family (server/domain/crawlers/crawlers.json), the action for crawlers
 * not listed, how user-initiated fetchers (ChatGPT-User, ...) count, and the crawler price.
 */
export interface AgentPayments {
  enabled: boolean;
  /** Per page, before the platform fee; null: the publisher's full-display price. */
  crawlerPriceMicros: number | null;
  defaultAction: CrawlerAction;
  crawlers: Record<string, CrawlerAction>;
  /** "reader": a person's own request through an assistant is served like a human reader. */
  userFetchers: "reader" | CrawlerAction;
}

export const DEFAULT_AGENT_PAYMENTS: AgentPayments = {
  enabled: true,
  crawlerPriceMicros: null,
  defaultAction: "allow",
  crawlers: {},
  userFetchers: "reader",
};

/** A publisher with all its settings. */
export interface Publisher {
  id: string;
  slug: string;
  name: string;
  description: string;
  email: string | null;
  customDomain: string | null;
  branding: Branding;
  toggles: Toggles;
  rights: Rights;
  /** Per-use prices in micro-dollars, applied to PAYWALL articles. */
  pricesMicros: UsePrices;
  paywallMeterLimit: number;
  robotsOrigin: string | null;
  /**
   * Reverse-proxy mode (issue 33): the publisher's own site, which answers its domain's pages
   * once Folio's crawler gate admits a request; null: Folio's pages answer.
   */
  originUrl: string | null;
  enterpriseTerms: EnterpriseTerms | null;
  sponsorTools: string[];
  agentPayments: AgentPayments;
}

export const DEFAULT_TOGGLES: Toggles = {
  publicRest: false,
  a2a: false,
  mcpApps: false,
  requireAuth: false,
  consentScreen: false,
  subscriptionLinking: false,
};

/** docs/SPEC.md "Content license": summarization, display and rag granted; fine_tuning denied. */
export const DEFAULT_RIGHTS: Rights = {
  summarization: true,
  display: true,
  rag: true,
  fine_tuning: false,
};

export const DEFAULT_BRANDING: Branding = { logoUrl: null, primaryColor: null, font: null };

/** The fields a new publisher starts with; the rest take defaults. */
export type NewPublisher = Pick<Publisher, "id" | "slug" | "name"> & Partial<Publisher>;

/** Inserts a publisher. Throws the store's constraint error if slug or domain is taken. */
export async function insertPublisher(
  db: Client,
  p: NewPublisher,
  options: { now: Date },
): Promise<Publisher> {
  const { publisher, statement } = publisherInsert(p, options);
  await db.execute(statement);
  return publisher;
}

/** The statement inserting a publisher (with defaults filled in), for use inside a batch. */
export function publisherInsert(
  p: NewPublisher,
  options: { now: Date },
): { publisher: Publisher; statement: InStatement } {
  const publisher = withDefaults(p);
  const now = options.now.getTime();
  return {
    publisher,
    statement: {
      sql: `INSERT INTO publishers (id, slug, name, description, email, custom_domain, branding,
            toggles, rights, prices, paywall_meter_limit, robots_origin, enterprise_terms,
            sponsor_tools, agent_payments, origin_url, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      args: [...toRow(publisher), now, now],
    },
  };
}

/**
 * Replaces a publisher's settings with `p` (callers merge patches before calling). `keepDomain`
 * leaves custom_domain as it is: domain claims (store/domain_claims.ts) own it, and a check that
 * verified the domain meanwhile must not be undone by a stale copy.
 */
export async function updatePublisher(
  db: Client,
  p: Publisher,
  options: { now: Date; keepDomain?: boolean },
): Promise<void> {
  const [id, slug, name, description, email, domain, ...rest] = toRow(p);
  const keep = options.keepDomain === true;
  await db.execute({
    sql: `UPDATE publishers SET slug = ?, name = ?, description = ?, email = ?,
            ${keep ? "" : "custom_domain = ?,"} branding = ?, toggles = ?, rights = ?, prices = ?,
            paywall_meter_limit = ?, robots_origin = ?, enterprise_terms = ?, sponsor_tools = ?,
            agent_payments = ?, origin_url = ?, updated_at = ?
          WHERE id = ?`,
    args: [
      slug,
      name,
      description,
      email,
      ...(keep ? [] : [domain]),
      ...rest,
      options.now.getTime(),
      id,
    ],
  });
}

/** A publisher by id. */
export function getPublisher(db: Client, id: string): Promise<Publisher | null> {
  return one(db, "id = ?", id);
}

/** A publisher by slug. */
export function findPublisherBySlug(db: Client, slug: string): Promise<Publisher | null> {
  return one(db, "slug = ?", slug.toLowerCase());
}

/** The publisher whose custom domain is `host` (case-insensitive, port and trailing dot ignored). */
export function findPublisherByDomain(db: Client, host: string): Promise<Publisher | null> {
  return one(db, "custom_domain = ?", normaliseHost(host));
}

/** All publishers, oldest first. */
export async function listPublishers(db: Client): Promise<Publisher[]> {
  const rs = await db.execute("SELECT * FROM publishers ORDER BY created_at, id");
  return rs.rows.map(toPublisher);
}

/** Stores the hash of a new publisher key. */
export async function addPublisherKey(
  db: Client,
  publisherId: string,
  key: { id: string; hash: string; hint: string; now: Date },
): Promise<void> {
  await db.execute(publisherKeyInsert(publisherId, key));
}

/** The statement storing the hash of a new publisher key, for use inside a batch. */
export function publisherKeyInsert(
  publisherId: string,
  key: { id: string; hash: string; hint: string; now: Date },
): InStatement {
  return {
    sql: `INSERT INTO publisher_keys (id, publisher_id, key_hash, hint, created_at)
          VALUES (?, ?, ?, ?, ?)`,
    args: [key.id, publisherId, key.hash, key.hint, key.now.getTime()],
  };
}

/**
 * Revokes every live key of the publisher and stores a new one, and ends its dashboard sessions
 * but `keepSession` (the hash of the one asking, if any), in one transaction.
 */
export async function replacePublisherKey(
  db: Client,
  publisherId: string,
  key: { id: string; hash: string; hint: string; now: Date },
  options: { keepSession: string | null } = { keepSession: null },
): Promise<void> {
  await db.batch([
    {
      sql: "UPDATE publisher_keys SET revoked_at = ? WHERE publisher_id = ? AND revoked_at IS NULL",
      args: [key.now.getTime(), publisherId],
    },
    publisherKeyInsert(publisherId, key),
    endSessionsStatement(publisherId, { keep: options.keepSession }),
  ], "write");
}

/** The publisher owning an unrevoked key with this hash. */
export async function findPublisherIdByKeyHash(db: Client, hash: string): Promise<string | null> {
  const rs = await db.execute({
    sql: "SELECT publisher_id FROM publisher_keys WHERE key_hash = ? AND revoked_at IS NULL",
    args: [hash],
  });
  return rs.rows[0] ? String(rs.rows[0].publisher_id) : null;
}

/** Lower-cases a Host header value and strips its port and trailing dot. */
export function normaliseHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith("[")) h = h.slice(0, h.indexOf("]") + 1);
  else h = h.replace(/:\d*$/, "");
  return h.replace(/\.$/, "");
}

function withDefaults(p: NewPublisher): Publisher {
  return {
    description: "",
    email: null,
    customDomain: null,
    branding: DEFAULT_BRANDING,
    toggles: DEFAULT_TOGGLES,
    rights: DEFAULT_RIGHTS,
    pricesMicros: { summarization: 0, display: 0, rag: 0 },
    paywallMeterLimit: 3,
    robotsOrigin: null,
    originUrl: null,
    enterpriseTerms: null,
    sponsorTools: [],
    agentPayments: DEFAULT_AGENT_PAYMENTS,
    ...p,
  };
}

function toRow(p: Publisher) {
  return [
    p.id,
    p.slug,
    p.name,
    p.description,
    p.email,
    p.customDomain ? normaliseHost(p.customDomain) : null,
    JSON.stringify(p.branding),
    JSON.stringify(p.toggles),
    JSON.stringify(p.rights),
    JSON.stringify(p.pricesMicros),
    p.paywallMeterLimit,
    p.robotsOrigin,
    p.enterpriseTerms ? JSON.stringify(p.enterpriseTerms) : null,
    JSON.stringify(p.sponsorTools),
    JSON.stringify(p.agentPayments),
    p.originUrl,
  ];
}

function one(db: Client, where: string, arg: string): Promise<Publisher | null> {
  return cachedConfig(db, `publisher:${where}:${arg}`, () => uncachedOne(db, where, arg));
}

async function uncachedOne(db: Client, where: string, arg: string): Promise<Publisher | null> {
  const rs = await db.execute({ sql: `SELECT * FROM publishers WHERE ${where}`, args: [arg] });
  return rs.rows[0] ? toPublisher(rs.rows[0]) : null;
}

// deno-lint-ignore no-explicit-any
function toPublisher(r: any): Publisher {
  return {
    id: String(r.id),
    slug: String(r.slug),
    name: String(r.name),
    description: String(r.description),
    email: r.email === null ? null : String(r.email),
    customDomain: r.custom_domain === null ? null : String(r.custom_domain),
    branding: { ...DEFAULT_BRANDING, ...JSON.parse(String(r.branding)) },
    toggles: { ...DEFAULT_TOGGLES, ...JSON.parse(String(r.toggles)) },
    rights: { ...DEFAULT_RIGHTS, ...JSON.parse(String(r.rights)) },
    pricesMicros: { summarization: 0, display: 0, rag: 0, ...JSON.parse(String(r.prices)) },
    paywallMeterLimit: Number(r.paywall_meter_limit),
    robotsOrigin: r.robots_origin === null ? null : String(r.robots_origin),
    originUrl: r.origin_url === null || r.origin_url === undefined ? null : String(r.origin_url),
    enterpriseTerms: r.enterprise_terms === null ? null : JSON.parse(String(r.enterprise_terms)),
    sponsorTools: JSON.parse(String(r.sponsor_tools)),
    agentPayments: r.agent_payments === null || r.agent_payments === undefined
      ? DEFAULT_AGENT_PAYMENTS
      : { ...DEFAULT_AGENT_PAYMENTS, ...JSON.parse(String(r.agent_payments)) },
  };
}
