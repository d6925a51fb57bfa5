/** The console's license requests: tabs by state, approve and deny forms, refusals, isolation. */
import assert from "node:assert/strict";
import { RequestsPage } from "../ui/console/requests.tsx";
import { renderPage } from "../ui/layout.tsx";
import { consoleSignUp, hidden, textOf } from "./console_helpers.ts";
import { demoVisitor, mcpTool, signUpBuyer } from "./console_activity_helpers.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { mintToken } from "./mcp_helpers.ts";

interface Req {
  id: string;
  state: string;
  licenseId: string | null;
}

/** Asks the demo publisher for a license through MCP's request_license; returns the request id. */
async function requestLicense(
  folio: TestFolio,
  bearer: string,
  args: Record<string, unknown>,
): Promise<string> {
  const result = await mcpTool(folio, "request_license", args, { bearer });
  const id = (result.structuredContent as { requestId?: string }).requestId;
  assert.ok(id, JSON.stringify(result));
  return id;
}

async function demoRequests(folio: TestFolio): Promise<Req[]> {
  const res = await folio.request("/api/publisher/license-requests", {
    headers: { authorization: `Bearer ${folio.seeded!.apiKey}` },
  });
  return (await json<{ requests: Req[] }>(res)).requests;
}

Deno.test("a new publisher's requests page explains request_license in the pending tab", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/requests");
  assert.equal(page.status, 200);
  const text = textOf(page.html);
  assert.match(
    text,
    /No requests are waiting\. When an AI company's agent asks for a license/,
  );
  assert.match(page.html, /href="\/publisher\/requests\?state=pending" aria-current="page"/);
  for (const state of ["approved", "denied"]) {
    const tab = await visitor.get(`/publisher/requests?state=${state}`);
    assert.equal(tab.status, 200);
    assert.match(tab.html, new RegExp(`state=${state}" aria-current="page"`));
  }
  assert.match(
    textOf((await visitor.get("/publisher/requests?state=denied")).html),
    /No denied requests/,
  );
});

Deno.test("pending requests are approved with a price and term, or denied with a reason", async () => {
  await using folio = await testFolio();
  const visitor = await demoVisitor(folio);
  const acme = await signUpBuyer(folio, "Acme AI");
  const lab = await signUpBuyer(folio, "Lab Co");
  const approveId = await requestLicense(folio, acme.apiKey, {
    use_case: "fine_tuning",
    message: "We train a small model on your archive.\nAttribution on every answer.",
    contact: "ml@acme.test",
  });
  const denyId = await requestLicense(folio, lab.apiKey, {
    use_case: "display",
    message: "<script>alert(1)</script> display please",
  });

  const page = await visitor.get("/publisher/requests");
  const text = textOf(page.html);
  assert.match(text, /Asks for fine-tuning From Acme AI buyer Contact ml@acme\.test/);
  assert.match(text, /We train a small model on your archive\. Attribution on every answer\./);
  assert.match(page.html, /&lt;script>alert\(1\)&lt;\/script> display please/);
  assert.doesNotMatch(page.html, /<script>alert/);
  assert.match(page.html, new RegExp(`action="/publisher/requests/${approveId}/approve"`));
  assert.match(page.html, new RegExp(`action="/publisher/requests/${denyId}/deny"`));

  const csrf = hidden(page.html);
  const approved = await visitor.post(`/publisher/requests/${approveId}/approve`, {
    _csrf: csrf,
    priceUsd: "250",
    termMonths: "12",
  });
  assert.equal(approved.status, 200);
  assert.equal(approved.url, "/publisher/requests?state=approved&done=approved");
  assert.match(approved.html, /role="status">Offer sent/);
  const approvedText = textOf(approved.html);
  assert.match(approvedText, /Asks for fine-tuning/);
  assert.match(
    approvedText,
    /approved on 15 Nov 2026, 12:00 Price \$250\.00 a month Term 12 months Offer Open until 29 Nov 2026, 12:00: waiting for the buyer to accept \(nothing billed yet\)\./,
  );
  assert.doesNotMatch(approved.html, /name="priceUsd"/, "a decided request has no forms");

  const denied = await visitor.post(`/publisher/requests/${denyId}/deny`, {
    _csrf: csrf,
    reason: "We do not license display.",
  });
  assert.equal(denied.url, "/publisher/requests?state=denied&done=denied");
  assert.match(denied.html, /role="status">Request denied/);
  assert.match(textOf(denied.html), /Asks for full display/);
  assert.match(textOf((await visitor.get("/publisher/requests")).html), /No requests are waiting/);

  const states = Object.fromEntries((await demoRequests(folio)).map((r) => [r.id, r.state]));
  assert.deepEqual(states, { [approveId]: "approved", [denyId]: "denied" });

  // Deciding again: the API's 409 is shown as a problem, nothing changes.
  const again = await visitor.post(`/publisher/requests/${approveId}/deny`, { _csrf: csrf });
  assert.equal(again.status, 409);
  assert.match(again.html, /role="alert">The license request was already approved/);
  const missing = await visitor.post("/publisher/requests/lreq_nope/approve", { _csrf: csrf });
  assert.equal(missing.status, 404);
  assert.match(missing.html, /role="alert">License request/);
});

Deno.test("a refused approval is shown beside its form with the typed values; a forged form changes nothing", async () => {
  await using folio = await testFolio();
  const visitor = await demoVisitor(folio);
  const { token } = await mintToken(folio); // an OAuth app no buyer has claimed yet
  const id = await requestLicense(folio, token, { use_case: "rag", message: "RAG for our app" });
  const page = await visitor.get("/publisher/requests");
  assert.match(textOf(page.html), /From .*OAuth app/);

  const refused = await visitor.post(`/publisher/requests/${id}/approve`, {
    _csrf: hidden(page.html),
    priceUsd: "99.5",
    termMonths: "3",
  });
  assert.equal(refused.status, 409);
  assert.match(refused.html, /role="alert">Not saved: see the request below/);
  assert.match(
    refused.html,
    /role="alert">No offer was made: this requester has no buyer account yet\./,
  );
  assert.doesNotMatch(textOf(refused.html), /\/api\//, "the console's words, not the API's routes");
  assert.match(refused.html, new RegExp(`id="price-${id}"[^>]*value="99\\.5"`));
  assert.match(refused.html, new RegExp(`id="term-${id}"[^>]*value="3"`));

  for (const action of ["approve", "deny"]) {
    const forged = await visitor.post(`/publisher/requests/${id}/${action}`, { _csrf: "forged" });
    assert.equal(forged.status, 403, action);
    assert.match(forged.html, /role="alert"/);
  }
  assert.equal((await demoRequests(folio))[0].state, "pending");

  const bad = await visitor.get("/publisher/requests?state=bogus");
  assert.equal(bad.status, 400);
  assert.match(bad.html, /role="alert">state: must be pending, approved or denied/);
  assert.match(textOf(bad.html), /RAG for our app/, "the pending requests are shown instead");
});

Deno.test("another publisher never sees nor decides the demo's requests", async () => {
  await using folio = await testFolio();
  const { apiKey } = await signUpBuyer(folio);
  const id = await requestLicense(folio, apiKey, { use_case: "rag", message: "demo only" });
  const { visitor } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/requests");
  assert.match(textOf(page.html), /No requests are waiting/);
  assert.doesNotMatch(page.html, /demo only/);
  const attempt = await visitor.post(`/publisher/requests/${id}/approve`, {
    _csrf: hidden(page.html),
  });
  assert.equal(attempt.status, 404);
  assert.equal((await demoRequests(folio))[0].state, "pending");
});

Deno.test("a decided request shows the price, term and reason when the API returns them", () => {
  const base = {
    buyerId: "buy_1",
    identity: "buyer:buy_1",
    requester: { kind: "buyer" as const, buyerId: "buy_1", name: "Acme AI" },
    useCase: "rag",
    enterprise: false,
    message: "m",
    contact: null,
    createdAt: "2026-11-01T09:00:00.000Z",
  };
  const html = renderPage(RequestsPage({
    who: { publisherId: "p", slug: "p", name: "P", email: null, csrfToken: "t" },
    state: "approved",
    limit: 200,
    requests: [
      {
        ...base,
        id: "lreq_1",
        state: "approved",
        licenseId: "lic_1",
        decidedAt: "2026-11-02T10:30:00.000Z",
        monthlyPriceUsdCents: 25000,
        termMonths: 12,
      },
      {
        ...base,
        id: "lreq_2",
        state: "denied",
        licenseId: null,
        decidedAt: "2026-11-03T10:30:00.000Z",
        enterprise: true,
        reason: "Not this year",
      },
    ],
  }));
  const text = textOf(html);
  assert.match(text, /From Acme AI buyer/);
  assert.match(
    text,
    /approved on 2 Nov 2026, 10:30 Price \$250\.00 a month Term 12 months License lic_1/,
  );
  assert.match(text, /Asks for your enterprise license \(and RAG retrieval\)/);
  assert.match(text, /Reason Not this year/);
});
