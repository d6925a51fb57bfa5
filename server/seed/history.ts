/**
 * The demo publisher's last 30 days (issue 34: "every chart and table shows what it is for"),
 * written once when the demo publisher is created: crawlers, buyers' agents and anonymous callers
 * (history_cast.ts) calling every surface, their reads of the catalog (a few articles far more
 * than the rest), reader intents, and the charges of the buyers' priced reads. Every read is
 * priced by `decide()` as a live one would be, so earnings, statements and the month's spend agree
 * with the charges. A seeded PRNG (pure-rand) makes the same past for the same `now`.
 */
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import type { CallEntry } from "../../store/call_log.ts";
import type { Client } from "../../store/db.ts";
import { type HistoricCharge, insertHistory } from "../../store/demo_history.ts";
import { newTimeOrderedId, sha256Hex } from "../../store/ids.ts";
import type { IntentEntry } from "../../store/intents.ts";
import type { Publisher } from "../../store/publishers.ts";
import { listRules } from "../../store/rules.ts";
import type { Policy } from "../../store/vocabulary.ts";
import { createBuyer } from "../surfaces/marketplace/buyers.ts";
import { decide } from "../domain/licensing/mod.ts";
import { articleFacts } from "../domain/reads/read_article.ts";
import { monthOf } from "../platform/clock.ts";
import { subtractMicros, sumMicros } from "../platform/money.ts";
import { type Move, PROMPTS, type Visitor, VISITORS } from "./history_cast.ts";

const DAY_MS = 86_400_000;
const DAYS = 30;
/** Calls per unit of a visitor's share on a weekday; weekends are quieter. */
const CALLS_PER_SHARE = 1.2;
const WEEKEND = 0.65;

/** An article of the demo catalog as the history reads it. */
export interface HistoryArticle {
  id: string;
  url: string;
  title: string;
  publishedAt: string | null;
  policy: Policy;
  priceMicros: number | null;
}

/** What was written, for the start-up banner and tests. */
export interface HistorySummary {
  calls: number;
  charges: number;
  intents: number;
}

/** Writes the publisher's past 30 days up to `now`; `seed` picks the story. */
export async function seedHistory(
  db: Client,
  publisher: Publisher,
  articles: HistoryArticle[],
  options: { now: Date; seed?: number; between?: () => Promise<void> },
): Promise<HistorySummary> {
  const rng = xoroshiro128plus(options.seed ?? 20_251_127);
  const random = () => uniformFloat64(rng);
  const now = options.now.getTime();
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const rules = await listRules(db, publisher.id);
  const visitors = await withBuyers(db, VISITORS, options.now);
  // A few articles are read far more than the rest (Zipf-like), in an order the seed picks.
  const ranked = shuffle(articles, random);
  const weightOf = (i: number) => 1 / (i + 1);
  // Buyers pay for PAYWALL articles because they want them: they pick those more often.
  const pick = (pool: HistoryArticle[], paying: boolean) =>
    choose(
      pool,
      pool.map((a) => weightOf(ranked.indexOf(a)) * (paying && a.policy === "PAYWALL" ? 4 : 1)),
      random,
    );
  const free = ranked.filter((a) => a.policy === "OBSERVE");

  const calls: CallEntry[] = [];
  const charges: HistoricCharge[] = [];
  const intents: IntentEntry[] = [];
  const spend = new Map<string, { buyerId: string; month: string; micros: number }>();
  for (let d = DAYS - 1; d >= 0; d--) {
    const day = today - d * DAY_MS;
    // Written after the server listens, a day at a time: requests take their turns in between.
    await options.between?.();
    const progress = (DAYS - 1 - d) / (DAYS - 1);
    const weekend = [0, 6].includes(new Date(day).getUTCDay()) ? WEEKEND : 1;
    for (const v of visitors) {
      const share = v.share[0] + (v.share[1] - v.share[0]) * progress;
      const n = Math.round(share * CALLS_PER_SHARE * weekend * (0.75 + 0.5 * random()));
      for (let i = 0; i < n; i++) {
        // Daytime-heavy: two uniform hours averaged peak in the middle of the UTC day.
        const at = day + Math.floor(((random() + random()) / 2) * DAY_MS);
        if (at >= now) continue;
        const move = choose(v.moves, v.moves.map((m) => m.weight), random);
        const article = move.use ? pick(v.freeOnly ? free : ranked, !!v.buyerId) : null;
        const call = callOf(v, move, article, at, random);
        calls.push({ ...call, publisherId: publisher.id });
        if (!article || !move.use || call.status !== "ok") continue;
        const decision = decide({
          publisher,
          article: articleFacts(article, null),
          rules,
          requester: {
            identity: v.identity!,
            buyerId: v.buyerId ?? null,
            licensedUses: [],
            approvedUses: [],
            territory: null,
            surface: v.surface,
          },
          use: move.use,
          usage: { spentThisMonthMicros: 0, budgetLeftMicros: null, meterCount: 0 },
          now: new Date(at),
        });
        if (decision.charge && v.buyerId) {
          const month = monthOf(new Date(at));
          const { micros, feeMicros, kind, use } = decision.charge;
          charges.push({
            id: newTimeOrderedId("chg", new Date(at)),
            buyerId: v.buyerId,
            publisherId: publisher.id,
            articleId: article.id,
            useCase: use,
            kind,
            priceMicros: subtractMicros(micros, feeMicros),
            feeMicros,
            month,
            requestHash: await sha256Hex(`${publisher.id}\n${article.id}\n${use}`),
            identity: v.identity!,
            surface: v.surface,
            at: new Date(at),
          });
          const key = `${v.buyerId} ${month}`;
          const total = spend.get(key) ?? { buyerId: v.buyerId, month, micros: 0 };
          total.micros = sumMicros([total.micros, micros]);
          spend.set(key, total);
        }
        if (v.surface !== "landing" && random() < 0.3) {
          intents.push({
            publisherId: publisher.id,
            articleId: article.id,
            prompt: PROMPTS[Math.floor(random() * PROMPTS.length)](article.title),
            identity: v.identity!,
            surface: v.surface,
            at: new Date(at),
          });
        }
      }
    }
  }
  // In time order, so call-log ids grow with time as they do live (store/analytics.ts relies on it).
  calls.sort((a, b) => a.at.getTime() - b.at.getTime());
  intents.sort((a, b) => a.at.getTime() - b.at.getTime());
  await insertHistory(db, {
    calls,
    charges,
    intents,
    spend: [...spend.values()].map((s) => ({ ...s, publisherId: publisher.id })),
  });
  return { calls: calls.length, charges: charges.length, intents: intents.length };
}

type Cast = Visitor & { buyerId?: string };

/** The cast with its buyers created (their keys are never shown: no one signs in as them). */
async function withBuyers(db: Client, visitors: Visitor[], now: Date): Promise<Cast[]> {
  const out: Cast[] = [];
  for (const v of visitors) {
    if (!v.buyer) {
      out.push(v);
      continue;
    }
    const { buyerId } = await createBuyer(db, v.buyer, { now });
    out.push({ ...v, buyerId, identity: `buyer:${buyerId}` });
  }
  return out;
}

/** One logged call: how the surface answers this visitor's move on this article. */
function callOf(
  v: Cast,
  move: Move,
  article: HistoryArticle | null,
  at: number,
  random: () => number,
): Omit<CallEntry, "publisherId"> {
  const latencyMs = Math.round((8 + 120 * random() ** 3) * 100) / 100;
  const base = {
    at: new Date(at),
    surface: v.surface,
    tool: move.tool,
    userAgent: v.userAgent,
    latencyMs,
    identity: v.identity ?? null,
    requestId: null,
    articleId: article?.id ?? null,
  };
  // A crawler without terms gets a 402 quote for a priced page (docs/SPEC.md "Agent payments").
  if (v.surface === "landing" && article && article.policy !== "OBSERVE") {
    return { ...base, status: "error", httpStatus: 402 };
  }
  // Now and then an agent asks for a page that is not there.
  if (move.use && v.surface === "rest" && random() < 0.02) {
    return { ...base, articleId: null, status: "error", httpStatus: 404 };
  }
  return { ...base, status: "ok", httpStatus: 200 };
}

/** One of `items`, with probability proportional to its weight. */
function choose<T>(items: readonly T[], weights: readonly number[], random: () => number): T {
  const total = weights.reduce((t, w) => t + w, 0);
  let r = random() * total;
  for (let i = 0; i < items.length; i++) {
    r -= weights[i];
    if (r < 0) return items[i];
  }
  return items[items.length - 1];
}

/** A copy of `items` in an order the PRNG picks (Fisher–Yates). */
function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
