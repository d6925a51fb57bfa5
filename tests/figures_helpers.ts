/**
 * The month of tests/figures_agree_test.ts and tests/figures_browser_test.ts (issue 42): metered
 * REST reads at a sub-cent price, a landing-page read with its fee, a license fee prorated to the
 * second, and an open offer for the buyer to accept.
 */
import assert from "node:assert/strict";
import type { Visitor } from "./console_helpers.ts";
import { demoArticleIds, restRead } from "./console_activity_helpers.ts";
import { json, type TestFolio } from "./helpers.ts";
import { demoPath, GPTBOT, visit } from "./landing_helpers.ts";
import { formatCrawlerPrice, parseCrawlerPrice } from "../server/surfaces/landing/crawler_price.ts";

// deno-lint-ignore no-explicit-any
export type Body = Record<string, any>;

/** A JSON call with a bearer key. */
export async function api(folio: TestFolio, key: string, path: string, init: RequestInit = {}) {
  const res = await folio.request(path, {
    ...init,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
  });
  return { status: res.status, body: await json<Body>(res) };
}

/** Seeds the month: 3 metered reads, a landing read with its fee, a license, an open offer. */
export async function seedMonth(folio: TestFolio, buyer: { visitor?: Visitor; apiKey: string }) {
  const pk = folio.seeded!.apiKey;
  // A price of 0.6667¢ a read: three reads are 2.0001¢, rounded once 2¢; rounded each, 3¢.
  const priced = await api(folio, pk, "/api/publisher/settings", {
    method: "PATCH",
    body: JSON.stringify({ pricingUsdCents: { display: 0.6667 } }),
  });
  assert.equal(priced.status, 200, JSON.stringify(priced.body));
  const paid = await demoArticleIds(folio, "PAYWALL");
  for (const id of paid.slice(0, 3)) {
    assert.equal(await restRead(folio, id, { prompt: "figures", buyerKey: buyer.apiKey }), 200);
  }
  const paywall = await demoPath(folio, "PAYWALL");
  const quote = await visit(folio, paywall.path, { "user-agent": GPTBOT });
  await quote.body?.cancel();
  const price = parseCrawlerPrice(quote.headers.get("crawler-price")!)!;
  const crawl = await visit(folio, paywall.path, {
    "user-agent": GPTBOT,
    authorization: `Bearer ${buyer.apiKey}`,
    "crawler-exact-price": formatCrawlerPrice(price),
    "idempotency-key": "figures-1",
  });
  assert.equal(crawl.status, 200);
  await crawl.body?.cancel();

  const license = await api(folio, buyer.apiKey, "/api/marketplace/licenses", {
    method: "POST",
    body: JSON.stringify({ publisherId: "pub_demo", useCases: ["rag"] }),
  });
  assert.equal(license.status, 201, JSON.stringify(license.body));

  const asked = await api(folio, buyer.apiKey, "/api/marketplace/license-requests", {
    method: "POST",
    body: JSON.stringify({
      publisherId: "pub_demo",
      useCase: "fine_tuning",
      message: "Our archive model",
      maxMonthlyUsdCents: 41_262,
    }),
  });
  assert.equal(asked.status, 201, JSON.stringify(asked.body));
  const approved = await api(
    folio,
    pk,
    `/api/publisher/license-requests/${asked.body.requestId}/approve`,
    { method: "POST", body: JSON.stringify({ monthlyPriceUsdCents: 41_262 }) },
  );
  assert.equal(approved.status, 200, JSON.stringify(approved.body));
  return approved.body.offer.id as string;
}
