/** The buyer portal's licenses page: empty, listed in order, paged. */
import assert from "node:assert/strict";
import { insertLicense } from "../store/licenses.ts";
import { hidden, textOf } from "./console_helpers.ts";
import { testFolio } from "./helpers.ts";
import { portalSignUp } from "./buyer_helpers.ts";

Deno.test("with no license the page says what licenses are for and where to find one", async () => {
  await using folio = await testFolio();
  const { visitor } = await portalSignUp(folio);
  const page = await visitor.get("/buyer/licenses");
  assert.equal(page.status, 200);
  assert.match(textOf(page.html), /No licenses yet/);
  assert.match(page.html, /href="\/buyer\/catalog">Find a publisher to license/);
});

Deno.test("licenses are listed pending first, then active, newest first, a page at a time", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await portalSignUp(folio);
  const account = await (await folio.request("/api/marketplace/account", {
    headers: { authorization: `Bearer ${apiKey}` },
  })).json();
  const start = folio.clock.now().getTime();
  for (let i = 0; i < 30; i++) {
    await insertLicense(folio.store.db, account.buyerId, {
      id: `lic_${String(i).padStart(2, "0")}`,
      publisherId: "pub_demo",
      kind: i === 3 ? "enterprise" : "request",
      useCases: ["rag"],
      monthlyFeeMicros: 0,
      state: i === 0 ? "canceled" : "active",
      now: new Date(start + i * 60_000),
    });
  }
  const first = await visitor.get("/buyer/licenses");
  const rows = [...first.html.matchAll(/<tr id="(lic_\d+)"/g)].map((m) => m[1]);
  assert.equal(rows.length, 25);
  assert.equal(rows[0], "lic_29", "newest active first");
  assert.equal(rows.includes("lic_00"), false, "the canceled one comes last, on page 2");
  assert.match(textOf(first.html), /Page 1 of 2/);
  assert.match(first.html, /href="\/buyer\/licenses\?page=2">Next/);
  const second = await visitor.get("/buyer/licenses?page=2");
  const rest = [...second.html.matchAll(/<tr id="(lic_\d+)"/g)].map((m) => m[1]);
  assert.deepEqual(rest, ["lic_04", "lic_03", "lic_02", "lic_01", "lic_00"]);
  assert.match(
    textOf(second.html),
    /The Demo Ledger Enterprise license RAG retrieval \$0\.00 active/,
  );
  assert.equal(
    (second.html.match(/>Cancel…</g) ?? []).length,
    4,
    "a cancel button for each active license only",
  );
});

Deno.test("canceling a license from the portal: it stays active until the period ends, and says so", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await portalSignUp(folio);
  const catalog = await visitor.get("/buyer/catalog/pub_demo");
  const licensed = await visitor.post("/buyer/catalog/pub_demo/license", {
    _csrf: hidden(catalog.html),
    useCases: "display",
  });
  assert.match(textOf(licensed.html), /active 1 Dec 2026/, "renews on the 1st");
  const action = /href="(\/buyer\/licenses\/[^"]+\/cancel)"/.exec(licensed.html)![1];

  // The confirmation page says what happens before anything does.
  const confirm = await visitor.get(action);
  assert.equal(confirm.status, 200);
  const said = textOf(confirm.html);
  assert.match(said, /Cancel the full display license of The Demo Ledger\?/);
  assert.match(said, /keeps its uses until 1 Dec 2026, 00:00, then ends/);
  assert.match(said, /Credited \$0\.00: the period already paid runs to its end/);
  assert.match(said, /Charged \$0\.00/);
  assert.match(said, /Not billed: the \$100\.00 due on 1 Dec 2026 will not be charged/);
  assert.match(confirm.html, new RegExp(`action="${action}"`));
  assert.match(confirm.html, /name="confirm" value="yes"/);
  const unconfirmed = await visitor.post(action, { _csrf: hidden(confirm.html) });
  assert.equal(unconfirmed.status, 400);
  assert.match(textOf(unconfirmed.html), /Not canceled: confirm below/);
  const still = await folio.request("/api/marketplace/licenses", {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  assert.equal((await still.json()).licenses[0].cancelsAt, null, "nothing changed");

  const forged = await visitor.post(action, { _csrf: "nope", confirm: "yes" });
  assert.equal(forged.status, 403);
  // The kit's expired-form page, in words (tests/form_expired_test.ts).
  assert.match(textOf(forged.html), /This form has expired Nothing was changed/);

  const canceled = await visitor.post(action, { _csrf: hidden(confirm.html), confirm: "yes" });
  assert.equal(canceled.url, "/buyer/licenses?done=canceled");
  const text = textOf(canceled.html);
  assert.match(text, /License canceled: it stays active until the date shown, then ends/);
  assert.match(text, /active until 1 Dec 2026, 00:00, then ends/);
  assert.doesNotMatch(canceled.html, />Cancel…</, "no second cancel");

  const again = await visitor.post(action, { _csrf: hidden(licensed.html), confirm: "yes" });
  assert.ok(again.status === 409 || again.url === "/buyer/licenses?done=canceled", again.html);
});
