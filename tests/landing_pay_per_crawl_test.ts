/**
 * The landing path's pay-per-crawl dialect, end to end in process (issue 13): every crawler class
 * × policy × credential × header combination answers the status and headers of Cloudflare's
 * dialect, charges exactly price + 4.7%, and shows up on the statement and in earnings.
 */
import assert from "node:assert/strict";
import { formatCrawlerPrice, parseCrawlerPrice } from "../server/surfaces/landing/crawler_price.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { bodySample, CHATGPT_USER, demoPath, GPTBOT, RSL_LINK, visit } from "./landing_helpers.ts";
import { patchDemo, spendToCap } from "./fixtures/demo.ts";
import type { AgentPayments } from "../store/publishers.ts";

async function setPayments(folio: TestFolio, patch: Partial<AgentPayments>): Promise<void> {
  await patchDemo(folio, (p) => ({ ...p, agentPayments: { ...p.agentPayments, ...patch } }));
}

async function buyer(folio: TestFolio, n = 1) {
  return await createBuyer(folio.deps.store.db, {
    name: `Crawler Co ${n}`,
    email: `crawler${n}@example.test`,
  }, { now: folio.clock.now() });
}

/** The display price of a demo PAYWALL article plus the 4.7% fee, in micros. */
async function quoted(folio: TestFolio, path: string): Promise<number> {
  const res = await visit(folio, path, { "user-agent": GPTBOT });
  await res.body?.cancel();
  assert.equal(res.status, 402);
  return parseCrawlerPrice(res.headers.get("crawler-price")!)!;
}

/** The publisher's own price inside a quoted price + 4.7% fee. */
function ownPrice(quotedMicros: number): number {
  const own = Math.round(quotedMicros / 1.047);
  assert.equal(own + Math.round(own * 0.047), quotedMicros, "a price the fee arithmetic yields");
  return own;
}

const usd = formatCrawlerPrice;

Deno.test("pay-per-crawl: crawler × policy × credential × price header", async (t) => {
  await using folio = await testFolio();
  const observe = await demoPath(folio, "OBSERVE");
  const paywall = await demoPath(folio, "PAYWALL");
  const { apiKey } = await buyer(folio);
  const key = { authorization: `Bearer ${apiKey}` };
  const price = await quoted(folio, paywall.path);
  // Folio's fee arithmetic: the publisher's price + round-half-up(4.7%).
  const own = ownPrice(price);
  assert.equal(price, own + Math.round(own * 0.047));

  type Case = {
    name: string;
    ua?: string;
    path: string;
    headers?: Record<string, string>;
    status: number;
    error?: string;
    priceHeader?: boolean;
    charged?: boolean;
  };
  const cases: Case[] = [
    { name: "a person reads an OBSERVE article", path: observe.path, status: 200 },
    { name: "a person gets a PAYWALL teaser, not a 402", path: paywall.path, status: 200 },
    { name: "GPTBot reads OBSERVE free", ua: GPTBOT, path: observe.path, status: 200 },
    {
      name: "GPTBot is quoted a PAYWALL page",
      ua: GPTBOT,
      path: paywall.path,
      status: 402,
      priceHeader: true,
    },
    {
      name: "an offer without a credential needs strong auth",
      ua: GPTBOT,
      path: paywall.path,
      headers: { "crawler-exact-price": usd(price) },
      status: 400,
      error: "StrongAuthRequired",
    },
    {
      name: "a buyer key without an offer is told the price is missing",
      ua: GPTBOT,
      path: paywall.path,
      headers: key,
      status: 402,
      error: "MissingCrawlerPrice",
      priceHeader: true,
    },
    {
      name: "a wrong exact price",
      ua: GPTBOT,
      path: paywall.path,
      headers: { ...key, "crawler-exact-price": usd(price - 1) },
      status: 402,
      error: "InvalidCrawlerExactPrice",
      priceHeader: true,
    },
    {
      name: "a max price below the price",
      ua: GPTBOT,
      path: paywall.path,
      headers: { ...key, "crawler-max-price": usd(price - 1) },
      status: 402,
      error: "InvalidCrawlerMaxPrice",
      priceHeader: true,
    },
    {
      name: "both price headers",
      ua: GPTBOT,
      path: paywall.path,
      headers: { ...key, "crawler-exact-price": usd(price), "crawler-max-price": usd(price) },
      status: 400,
      error: "ConflictingPriceHeaders",
    },
    {
      name: "a malformed price",
      ua: GPTBOT,
      path: paywall.path,
      headers: { ...key, "crawler-exact-price": "0.05 USD" },
      status: 400,
      error: "InvalidCrawlerPriceValue",
    },
    {
      name: "the exact price with a key is served and charged",
      ua: GPTBOT,
      path: paywall.path,
      headers: { ...key, "crawler-exact-price": usd(price) },
      status: 200,
      charged: true,
    },
    {
      name: "a max price above the price is charged the price",
      ua: GPTBOT,
      path: paywall.path,
      headers: { ...key, "crawler-max-price": "USD 1.00" },
      status: 200,
      charged: true,
    },
    {
      name: "an unknown client with a key and an offer pays like a crawler",
      path: paywall.path,
      headers: { ...key, "user-agent": "research-script/1.0", "crawler-max-price": "USD 1.00" },
      status: 200,
      charged: true,
    },
    {
      name: "an offer on a free page is not charged",
      ua: GPTBOT,
      path: observe.path,
      headers: { ...key, "crawler-max-price": "USD 1.00" },
      status: 200,
    },
    {
      name: "ChatGPT-User (a person's own fetch) gets the teaser by default",
      ua: CHATGPT_USER,
      path: paywall.path,
      status: 200,
    },
    {
      name: "an OAuth access token is not a page credential",
      ua: GPTBOT,
      path: paywall.path,
      headers: { authorization: "Bearer fat_not_for_pages" },
      status: 401,
    },
    {
      name: "a key in the URL is refused",
      ua: GPTBOT,
      path: `${paywall.path}?api_key=${apiKey}`,
      status: 400,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const res = await visit(folio, c.path, {
        ...(c.ua ? { "user-agent": c.ua } : {}),
        ...c.headers,
      });
      const body = await res.text();
      assert.equal(res.status, c.status, body);
      assert.equal(res.headers.get("crawler-error"), c.error ?? null);
      assert.equal(res.headers.get("crawler-price"), c.priceHeader ? usd(price) : null);
      assert.equal(res.headers.get("crawler-charged"), c.charged ? usd(price) : null);
      // Every page and every crawler-error answer points at license.xml as RSL.
      if (c.status === 200 || c.error) {
        assert.match(res.headers.get("link") ?? "", RSL_LINK);
      }
    });
  }
});

Deno.test("pay-per-crawl: the publisher's per-crawler actions and the BLOCKED policy", async () => {
  await using folio = await testFolio();
  const observe = await demoPath(folio, "OBSERVE");
  const paywall = await demoPath(folio, "PAYWALL");
  await setPayments(folio, {
    crawlers: { GPTBot: "block", CCBot: "charge" },
    crawlerPriceMicros: 15_000,
  });
  const blocked = await visit(folio, observe.path, { "user-agent": GPTBOT });
  assert.equal(blocked.status, 403);
  assert.equal(blocked.headers.get("crawler-error"), "CrawlerForbidden");
  assert.match(blocked.headers.get("link") ?? "", RSL_LINK);
  await blocked.body?.cancel();
  // robots.txt and the license stay free to a blocked crawler: they say why.
  const robots = await visit(folio, "/robots.txt", { "user-agent": GPTBOT });
  assert.equal(robots.status, 200);
  assert.match(await robots.text(), /User-agent: GPTBot\nDisallow: \//);

  // A charged crawler pays the crawler price on an OBSERVE page; an article's own price wins.
  const ccbot = "CCBot/2.0 (https://commoncrawl.org/faq/)";
  const charged = await visit(folio, observe.path, { "user-agent": ccbot });
  assert.equal(charged.status, 402);
  assert.equal(charged.headers.get("crawler-price"), "USD 0.015705");
  assert.match(charged.headers.get("link") ?? "", RSL_LINK);
  await charged.body?.cancel();
  await folio.deps.store.db.execute({
    sql: "UPDATE articles SET price_micros = 30000 WHERE id = ?",
    args: [paywall.id],
  });
  const own = await visit(folio, paywall.path, { "user-agent": ccbot });
  assert.equal(own.status, 402);
  assert.equal(own.headers.get("crawler-price"), "USD 0.03141");
  await own.body?.cancel();

  // User fetchers can be charged too; with agent payments off nobody is quoted.
  await setPayments(folio, { userFetchers: "charge" });
  const user = await visit(folio, paywall.path, { "user-agent": CHATGPT_USER });
  assert.equal(user.status, 402);
  await user.body?.cancel();
  await setPayments(folio, { enabled: false });
  const off = await visit(folio, observe.path, { "user-agent": ccbot });
  assert.equal(off.status, 200);
  await off.body?.cancel();

  const full = await visit(folio, observe.path);
  assert.ok((await full.text()).includes(await bodySample(folio, observe.id)));
  // BLOCKED means no AI agents: people read the article, crawlers get CrawlerForbidden.
  await folio.deps.store.db.execute({
    sql: "UPDATE articles SET policy = 'BLOCKED' WHERE id = ?",
    args: [observe.id],
  });
  const person = await visit(folio, observe.path);
  assert.equal(person.status, 200);
  assert.ok((await person.text()).includes(await bodySample(folio, observe.id)));
  const crawler = await visit(folio, observe.path, { "user-agent": "PerplexityBot/1.0" });
  assert.equal(crawler.status, 403);
  assert.equal(crawler.headers.get("crawler-error"), "CrawlerForbidden");
  await crawler.body?.cancel();
});

Deno.test("pay-per-crawl: a paid read is one ledger row with the fee apart, on the statement and in earnings", async () => {
  await using folio = await testFolio();
  const paywall = await demoPath(folio, "PAYWALL");
  const { apiKey } = await buyer(folio);
  const price = await quoted(folio, paywall.path);
  const own = ownPrice(price);
  const pay = {
    "user-agent": GPTBOT,
    authorization: `Bearer ${apiKey}`,
    "crawler-exact-price": usd(price),
    "idempotency-key": "crawl-1",
  };
  for (let i = 0; i < 2; i++) {
    const res = await visit(folio, paywall.path, pay);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("crawler-charged"), usd(price));
    await res.body?.cancel();
  }
  const rows = await folio.deps.store.db.execute(
    "SELECT price_micros, fee_micros, surface FROM charges WHERE kind = 'landing'",
  );
  assert.deepEqual(rows.rows.map((r) => [r.price_micros, r.fee_micros, r.surface]), [
    [own, price - own, "landing"],
  ]);

  const statement = await json<
    { lines: { kind: string; amountUsdCents: number; amountUsdMicros: number }[] }
  >(
    await folio.request("/api/marketplace/statement", {
      headers: { authorization: `Bearer ${apiKey}` },
    }),
  );
  const line = statement.lines.find((l) => l.kind === "landing")!;
  // Exact in micros; printed in whole cents, rounded once.
  assert.equal(line.amountUsdMicros, price);
  assert.equal(line.amountUsdCents, Math.round(price / 10_000));

  const publisherKey = folio.seeded!.apiKey;
  const earnings = await json<
    { months: { landingUsdCents: number; platformFeesUsdCents: number }[] }
  >(
    await folio.request("/api/publisher/earnings", {
      headers: { authorization: `Bearer ${publisherKey}` },
    }),
  );
  assert.equal(earnings.months[0].landingUsdCents, Math.round(own / 10_000));
  assert.equal(earnings.months[0].platformFeesUsdCents, Math.round((price - own) / 10_000));
});

Deno.test("pay-per-crawl: at the cap the charge fails with PaymentFailed and nothing is served", async () => {
  await using folio = await testFolio();
  const paywall = await demoPath(folio, "PAYWALL");
  const { apiKey, buyerId } = await buyer(folio);
  await spendToCap(folio, buyerId);
  const res = await visit(folio, paywall.path, {
    "user-agent": GPTBOT,
    authorization: `Bearer ${apiKey}`,
    "crawler-max-price": "USD 1.00",
  });
  assert.equal(res.status, 403);
  assert.equal(res.headers.get("crawler-error"), "PaymentFailed");
  assert.match(await res.text(), /cap/);
});

Deno.test("robots.txt escalation: a crawler the origin disallows pays on an OBSERVE article; others do not", async () => {
  await using folio = await testFolio();
  const observe = await demoPath(folio, "OBSERVE");
  // The demo's articles live on its host here, whose robots.txt is Folio's own: the origin is
  // named in settings, and its file stored as a fetch would have.
  const origin = "https://origin.demo.example";
  await patchDemo(folio, (p) => ({ ...p, robotsOrigin: origin }));
  await folio.deps.store.db.execute({
    sql: `INSERT INTO robots (publisher_id, origin, body, status, fetched_at, last_ok_at)
          VALUES ('pub_demo', ?, ?, 200, ?, ?)`,
    args: [
      origin,
      "User-agent: GPTBot\nDisallow: /articles/\n\nUser-agent: *\nAllow: /\n",
      folio.clock.now().getTime(),
      folio.clock.now().getTime(),
    ],
  });
  const gpt = await visit(folio, observe.path, { "user-agent": GPTBOT });
  assert.equal(gpt.status, 402);
  assert.ok(gpt.headers.get("crawler-price"));
  await gpt.body?.cancel();
  const claude = await visit(folio, observe.path, {
    "user-agent": "Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
  });
  assert.equal(claude.status, 200);
  assert.equal(claude.headers.get("crawler-price"), null);
  await claude.body?.cancel();
  // A person is never escalated.
  const person = await visit(folio, observe.path);
  assert.equal(person.status, 200);
  await person.body?.cancel();
});
