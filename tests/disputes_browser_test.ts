/**
 * Disputes in Chromium (issue 38 part 4): the buyer ticks items on the Items page and disputes
 * them with a reason, sees the dispute's state on its Disputes page; the publisher accepts one in
 * part and refuses another on the console's Disputes page; each page passes axe-core at 1280 and
 * 375 px without horizontal scroll.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { DEMO_CONSOLE_EMAIL } from "../server/seed/demo.ts";
import { browserTest, pageText as text, submitForm, visitPage } from "./browser.ts";
import { browserSignUp } from "./buyer_helpers.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";
import { escalateDueDisputes } from "../server/domain/billing/disputes.ts";
import { signedInOperator } from "./operator_helpers.ts";

async function bothWidths(page: Page, url: string, shot: string) {
  await page.setViewport({ width: 1280, height: 900 });
  await visitPage(page, url, `${shot}-1280`);
  await page.setViewport({ width: 375, height: 800 });
  await visitPage(page, url, `${shot}-375`);
  const wide = await page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
  assert.equal(wide, 0, `${shot}: no horizontal scroll at 375 px`);
  await page.setViewport({ width: 1280, height: 900 });
}

async function disputeTicked(page: Page, base: string, ids: string[], reason: string) {
  await page.goto(`${base}/buyer/items`, { waitUntil: "load" });
  for (const id of ids) await page.click(`input[name=itemIds][value='${id}']`);
  return await submitForm(page, "form[action='/buyer/disputes']", { reason });
}

browserTest(
  "disputes: the buyer opens them from Items, the publisher decides on its console",
  async ({
    folio,
    page,
    base,
  }) => {
    const apiKey = await browserSignUp(page, base, "buyer-disputes-signup");
    for (const id of await paywalled(folio, 3)) {
      assert.equal((await read(folio, apiKey, id)).status, 200);
    }
    const items = await (await folio.request("/api/marketplace/items", {
      headers: { authorization: `Bearer ${apiKey}` },
    })).json();
    const [a, b, c] = items.items.map((i: { id: string }) => i.id);

    await bothWidths(page, `${base}/buyer/disputes`, "buyer-disputes-empty");
    assert.match(await text(page), /No disputes\./);
    await bothWidths(page, `${base}/buyer/items`, "buyer-items-dispute-form");

    // Nothing ticked, or no reason: refused, with the words why.
    assert.equal(await disputeTicked(page, base, [], "Nothing ticked"), 400);
    assert.match(await text(page), /Tick at least one item/);
    assert.equal(await disputeTicked(page, base, [a], "   "), 400);
    assert.match(await text(page), /Not opened: reason/);

    assert.equal(await disputeTicked(page, base, [a, b], "These two were read by a retry"), 200);
    assert.equal(new URL(page.url()).pathname, "/buyer/disputes");
    assert.match(await text(page), /Dispute opened/);
    assert.equal(await disputeTicked(page, base, [c], "Never read this"), 200);
    await bothWidths(page, `${base}/buyer/disputes`, "buyer-disputes-open");
    assert.match(await text(page), /waiting for the publisher/);

    // The publisher, on its console.
    const console = await page.browser().newPage();
    await console.setBypassCSP(true);
    await console.goto(`${base}/publisher/login`, { waitUntil: "load" });
    await submitForm(console, "form[action='/publisher/login']", {
      email: DEMO_CONSOLE_EMAIL,
      password: folio.seeded!.consolePassword,
    });
    await bothWidths(console, `${base}/publisher/disputes`, "console-disputes-open");
    const list = await (await folio.request("/api/publisher/disputes", {
      headers: { authorization: `Bearer ${folio.seeded!.apiKey}` },
    })).json();
    const [third, first] = list.disputes;
    // Too much: refused on the page, nothing decided.
    assert.equal(
      await submitForm(console, `form[action='/publisher/disputes/${first.id}/accept']`, {
        amountUsd: "1000",
      }),
      400,
    );
    assert.match(await text(console), /amountUsdMicros: must be from 1 to/);
    assert.equal(
      await submitForm(console, `form[action='/publisher/disputes/${first.id}/accept']`, {
        amountUsd: "0.001",
        reason: "One read was a retry",
      }),
      200,
    );
    assert.match(await text(console), /Dispute accepted/);
    assert.equal(
      await submitForm(console, `form[action='/publisher/disputes/${third.id}/refuse']`, {
        reason: "The read happened: see the call log",
      }),
      200,
    );
    assert.match(await text(console), /Dispute refused/);
    await bothWidths(console, `${base}/publisher/disputes`, "console-disputes-decided");
    assert.match(await text(console), /accepted in part/);

    await bothWidths(page, `${base}/buyer/disputes`, "buyer-disputes-decided");
    const words = await text(page);
    assert.match(words, /accepted in part/);
    assert.match(words, /FOLIO-CN-\d{6}/);
    assert.match(words, /The read happened: see the call log/);
    await bothWidths(page, `${base}/buyer/items`, "buyer-items-credit");
    assert.match(await text(page), /Credit note FOLIO-CN-\d{6} for item/);
  },
);

browserTest("disputes: the operator decides an escalated dispute on its console", async ({
  folio,
  page,
  base,
}) => {
  const { apiKey } = await signup(folio, "op-page");
  const [article] = await paywalled(folio, 1);
  for (let i = 0; i < 2; i++) assert.equal((await read(folio, apiKey, article)).status, 200);
  const items = await (await folio.request("/api/marketplace/items", {
    headers: { authorization: `Bearer ${apiKey}` },
  })).json();
  for (const item of items.items) {
    const res = await folio.request("/api/marketplace/disputes", {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ itemIds: [item.id], reason: "Read once, billed twice" }),
    });
    assert.equal(res.status, 201);
    await res.body?.cancel();
  }
  folio.clock.advance(15 * 86_400_000);
  const rules = { db: folio.deps.store.db, clock: folio.clock, config: folio.deps.config };
  assert.equal(await escalateDueDisputes(rules), 2);

  const op = await signedInOperator(folio);
  const [name, value] = op.cookie.split("=");
  await page.setCookie({ name, value, url: base });
  await bothWidths(page, `${base}/operator/disputes`, "operator-disputes-escalated");
  assert.match(await text(page), /with the operator/);
  const [second, first] = (await (await folio.request("/api/operator/disputes", {
    headers: { cookie: op.cookie },
  })).json()).disputes;
  assert.equal(
    await submitForm(page, `form[action='/operator/disputes/${first.id}/accept']`),
    200,
  );
  assert.match(await text(page), /Dispute accepted/);
  assert.equal(
    await submitForm(page, `form[action='/operator/disputes/${second.id}/refuse']`, {
      reason: "Two reads, two charges",
    }),
    200,
  );
  await bothWidths(page, `${base}/operator/disputes`, "operator-disputes-decided");
  const words = await text(page);
  assert.match(words, /accepted in full/);
  assert.match(words, /by the operator/);
  await visitPage(page, `${base}/operator/audit?subjectKind=dispute`, "operator-audit-disputes");
  assert.match(await text(page), /dispute\.decided/);
});
