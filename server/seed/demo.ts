/**
 * The demo publisher, seeded on first start with an empty store (FOLIO_SEED=0 turns it off):
 * "The Demo Ledger" at demo.localhost, public REST and A2A on, auth not required.
 */
import { upsertArticle } from "../../store/articles.ts";
import type { Client } from "../../store/db.ts";
import { findPublisherBySlug, getPublisher, insertPublisher } from "../../store/publishers.ts";
import { issuePublisherKey } from "../surfaces/manage/accounts.ts";
import { hashPassword } from "../domain/accounts/passwords.ts";
import { randomBase62 } from "../platform/secrets.ts";
import { userInsert } from "../../store/users.ts";
import { newId } from "../../store/ids.ts";
import { centsToMicros } from "../platform/money.ts";
import catalog from "./demo_catalog.json" with { type: "json" };
import { type HistoryArticle, type HistorySummary, seedHistory } from "./history.ts";

export const DEMO_PUBLISHER_ID = "pub_demo";
export const DEMO_DOMAIN = "demo.localhost";

interface DemoArticle {
  slug: string;
  url: string;
  title: string;
  author: string;
  publishedAt: string;
  summary: string;
  tags: string[];
  policy: "OBSERVE" | "PAYWALL";
  priceUsdCents: number | null;
  body: string;
}

/** Who signs in to the demo publisher's console (/publisher/login). */
export const DEMO_CONSOLE_EMAIL = "editors@demo.localhost";

/** What seeding did: the publisher key and console password are returned once, for the banner. */
export interface SeedResult {
  publisherId: string;
  articleIds: string[];
  apiKey: string;
  /** The password of DEMO_CONSOLE_EMAIL; only its hash is stored. */
  consolePassword: string;
  /** What the 30 days of history hold, when they were seeded. */
  history: HistorySummary | null;
}

/** Seeds the demo publisher unless a publisher with its slug exists; returns null if it did. */
export async function seedDemo(
  db: Client,
  options: {
    now: Date;
    onArticle?: (publisherId: string, articleId: string) => Promise<void>;
    /** Also write 30 days of calls, charges and reads before `now` (server/seed/history.ts). */
    history?: boolean;
  },
): Promise<SeedResult | null> {
  if (await findPublisherBySlug(db, "demo")) return null;
  await insertPublisher(db, {
    id: DEMO_PUBLISHER_ID,
    slug: "demo",
    name: "The Demo Ledger",
    description:
      "A general-interest magazine of explanatory journalism on science, cities, energy and culture.",
    email: "editors@demo.localhost",
    customDomain: DEMO_DOMAIN,
    branding: { logoUrl: null, primaryColor: "#0f766e", font: "Georgia, serif" },
    toggles: {
      publicRest: true,
      a2a: true,
      mcpApps: true,
      requireAuth: false,
      consentScreen: false,
      subscriptionLinking: false,
    },
    pricesMicros: {
      summarization: centsToMicros(0.1),
      display: centsToMicros(2),
      rag: centsToMicros(0.5),
    },
    paywallMeterLimit: 3,
    robotsOrigin: null,
    enterpriseTerms: {
      useCases: ["summarization", "display", "rag", "fine_tuning"],
      monthlyPriceMicros: centsToMicros(250_000),
      conditions: "Training use limited to one model family; attribution in model cards.",
    },
  }, { now: options.now });
  const apiKey = await issuePublisherKey(db, DEMO_PUBLISHER_ID, options);
  const consolePassword = randomBase62(20);
  await db.batch([
    userInsert({
      id: newId("usr"),
      publisherId: DEMO_PUBLISHER_ID,
      email: DEMO_CONSOLE_EMAIL,
      passwordHash: await hashPassword(consolePassword),
    }, options),
  ], "write");
  const articleIds: string[] = [];
  for (const a of catalog as DemoArticle[]) {
    const { id } = await upsertArticle(db, DEMO_PUBLISHER_ID, {
      url: a.url,
      title: a.title,
      author: a.author,
      publishedAt: a.publishedAt,
      summary: a.summary,
      tags: a.tags,
      body: a.body,
      policy: a.policy,
      priceMicros: priceOf(a),
    }, { now: options.now });
    articleIds.push(id);
    await options.onArticle?.(DEMO_PUBLISHER_ID, id);
  }
  const history = options.history
    ? await seedDemoHistory(db, { articleIds }, { now: options.now })
    : null;
  return { publisherId: DEMO_PUBLISHER_ID, articleIds, apiKey, consolePassword, history };
}

function priceOf(a: DemoArticle): number | null {
  return a.priceUsdCents === null ? null : centsToMicros(a.priceUsdCents);
}

/**
 * The demo's 30 days of history (server/seed/history.ts) for the catalog `seedDemo` just wrote:
 * `seedDemo` writes it when asked, and `startFolio` writes it after the server listens
 * (docs/decisions/operations.md, "The start's own work"), taking `between` turns.
 */
export async function seedDemoHistory(
  db: Client,
  seeded: Pick<SeedResult, "articleIds">,
  options: { now: Date; between?: () => Promise<void> },
): Promise<HistorySummary | null> {
  const publisher = await getPublisher(db, DEMO_PUBLISHER_ID);
  if (!publisher) return null;
  const articles: HistoryArticle[] = (catalog as DemoArticle[]).map((a, i) => ({
    id: seeded.articleIds[i],
    url: a.url,
    title: a.title,
    publishedAt: a.publishedAt,
    policy: a.policy,
    priceMicros: priceOf(a),
  }));
  return await seedHistory(db, publisher, articles, options);
}
