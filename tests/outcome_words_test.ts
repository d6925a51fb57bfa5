/**
 * One wording per outcome (issue 31): the same decision reads the same on REST (`message`), MCP
 * (`structuredContent.message`, which the text starts with) and A2A (the status message's text),
 * and that sentence is reasons.ts's (server/domain/licensing/reasons.ts). The landing path's own
 * outcome, payment_required, shows reasons.ts's quote on the publisher's page.
 */
import { METERED_CAP_MICROS } from "../server/platform/money.ts";
import assert from "node:assert/strict";
import { reasons } from "../server/domain/licensing/mod.ts";
import type { ReasonFacts } from "../server/domain/licensing/reasons.ts";
import type { UseCase } from "../server/domain/licensing/types.ts";
import { message, post, statusData, taskOf } from "../server/surfaces/a2a/_test_utils.ts";
import { findArticle, setArticlePolicy } from "../store/articles.ts";
import { getPublisher } from "../store/publishers.ts";
import { denyTerritory, outcomeFixture, patchDemo, spendToCap } from "./fixtures/demo.ts";
import { type TestFolio, testFolio } from "./helpers.ts";
import { demoPath, visit } from "./landing_helpers.ts";
import { mcpTool } from "./mcp_helpers.ts";
import { withPlatformFee } from "../server/platform/money.ts";

const DISPLAY: UseCase = "display";

/** The sentence each surface shows for one read of `id`, with its status value where it has one. */
async function sentences(folio: TestFolio, id: string, headers: Record<string, string>) {
  const rest = await folio.request(`/api/v1/articles/${id}?last_user_prompt=words`, {
    host: "demo.localhost",
    headers,
  });
  const restBody = await rest.json();
  const mcp = await mcpTool(folio, "get_article", { url_or_id: id }, headers);
  const a2a = await post(
    folio,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: { message: message("1.0", { data: { skill: "get_article", url_or_id: id } }) },
    }),
    { headers },
  );
  const task = taskOf(a2a.body.result);
  const mcpText: string = mcp.content[0].text;
  return {
    rest: restBody.message as string,
    mcp: mcp.structuredContent.message as string,
    mcpTextStarts: mcpText.startsWith(mcp.structuredContent.message),
    a2a: task.status.message.parts[0].text as string,
    status: {
      rest: restBody.status ?? "full",
      mcp: mcp.structuredContent.status,
      a2a: statusData(a2a.body.result).status,
    },
  };
}

Deno.test("every outcome's sentence is reasons.ts's, the same on REST, MCP and A2A", async (t) => {
  await using folio = await testFolio({ env: { FOLIO_COUNTRY_HEADER: "cf-ipcountry" } });
  const db = folio.deps.store.db;
  const { observe: [observe, observe2, observe3], paywalled, apiKey, buyerId } =
    await outcomeFixture(folio);
  const buyer = { authorization: `Bearer ${apiKey}` };
  const publisher = (await getPublisher(db, "pub_demo"))!;
  const facts = async (id: string): Promise<ReasonFacts> => {
    const a = (await findArticle(db, "pub_demo", id))!;
    return { publisher: publisher.name, cite: a.canonicalUrl ?? a.url };
  };
  const price = async (id: string) =>
    (await findArticle(db, "pub_demo", id))!.priceMicros ?? publisher.pricesMicros.display;

  const check = async (
    outcome: string,
    id: string,
    want: string,
    statuses: { rest: string; mcp: string; a2a: string },
    headers: Record<string, string> = {},
  ) => {
    await t.step(outcome, async () => {
      const got = await sentences(folio, id, headers);
      assert.deepEqual({ rest: got.rest, mcp: got.mcp, a2a: got.a2a }, {
        rest: want,
        mcp: want,
        a2a: want,
      });
      assert.ok(got.mcpTextStarts, "the MCP text starts with the sentence");
      assert.deepEqual(got.status, statuses);
    });
  };
  const same = (s: string) => ({ rest: s, mcp: s, a2a: s });

  await check("full, free", observe, reasons.free(await facts(observe)), {
    rest: "full",
    mcp: "full",
    a2a: "ok",
  });
  await check(
    "full, charged",
    paywalled[0],
    reasons.charged(await facts(paywalled[0]), await price(paywalled[0]), DISPLAY),
    { rest: "full", mcp: "full", a2a: "ok" },
    buyer,
  );
  // No free reads: every anonymous paid read is the upsell, whatever the surface's meter identity.
  await patchDemo(folio, (p) => ({ ...p, paywallMeterLimit: 0 }));
  await check(
    "paywall_upsell",
    paywalled[1],
    reasons.upsell(await facts(paywalled[1]), await price(paywalled[1]), DISPLAY),
    { rest: "payment_required", mcp: "paywall_upsell", a2a: "payment_required" },
  );
  await setArticlePolicy(db, "pub_demo", observe2, { policy: "BLOCKED", now: folio.clock.now() });
  await check("blocked", observe2, reasons.blocked(await facts(observe2)), same("blocked"));
  await denyTerritory(folio, "FR");
  await check(
    "territory_blocked",
    observe3,
    reasons.territory(await facts(observe3)),
    same("territory_blocked"),
    { "cf-ipcountry": "FR" },
  );
  await spendToCap(folio, buyerId);
  // The refusal states the month's real spend against the cap (issue 29 item 8).
  const atCap = async (id: string) => ({
    limit: "cap" as const,
    readMicros: await price(id),
    spentMicros: METERED_CAP_MICROS,
    budgetLeftMicros: null,
  });
  await check(
    "license_limited, capped",
    paywalled[2],
    reasons.cappedSummary(await facts(paywalled[2]), await atCap(paywalled[2])),
    same("license_limited"),
    buyer,
  );
  await patchDemo(folio, (x) => ({ ...x, rights: { ...publisher.rights, display: false } }));
  await check(
    "license_limited, summary rights",
    observe3,
    reasons.summaryOnly(await facts(observe3)),
    same("license_limited"),
  );
  await patchDemo(folio, (x) => ({
    ...x,
    rights: { ...publisher.rights, display: false, summarization: false },
  }));
  await check("license_denied", observe3, reasons.denied(), same("license_denied"));
  // Display allowed but no summary to fall back on: the capped buyer is denied.
  await patchDemo(folio, (x) => ({ ...x, rights: { ...publisher.rights, summarization: false } }));
  await check(
    "license_denied, capped",
    paywalled[2],
    reasons.cappedDenied(await facts(paywalled[2]), await atCap(paywalled[2])),
    same("license_denied"),
    buyer,
  );
});

Deno.test("the landing path's payment_required page shows reasons.ts's quote", async () => {
  await using folio = await testFolio();
  const paywall = await demoPath(folio, "PAYWALL");
  const publisher = (await getPublisher(folio.deps.store.db, "pub_demo"))!;
  const price = paywall.priceMicros ?? publisher.pricesMicros.display;
  const res = await visit(folio, paywall.path);
  const html = await res.text();
  assert.equal(res.status, 200, "a person gets the teaser");
  const want = reasons.quote(withPlatformFee(price).total, price, DISPLAY);
  assert.ok(html.includes(`<p class="reason">${want}</p>`), want);
});
