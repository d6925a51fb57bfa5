/**
 * Issue 42: a signed-in form sent without its CSRF token, or with one of an ended session, gets
 * the kit's page in words (403): what happened, that nothing changed, and a link back to the form,
 * the same in the publisher console and the buyer portal (the operator console's case is in
 * tests/operator_pages_test.ts).
 */
import assert from "node:assert/strict";
import { portalSignUp } from "./buyer_helpers.ts";
import { demoVisitor, hidden, textOf, type Visitor } from "./console_helpers.ts";
import { type TestFolio, testFolio } from "./helpers.ts";

/** POSTs `fields` to `path` as `visitor`, with a Referer; the answer is not followed. */
async function postFrom(
  folio: TestFolio,
  visitor: Visitor,
  path: string,
  fields: Record<string, string>,
  referer: string | null,
): Promise<{ status: number; html: string }> {
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    cookie: [...visitor.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
  };
  if (referer) headers.referer = referer;
  const res = await folio.request(path, {
    method: "POST",
    headers,
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  return { status: res.status, html: await res.text() };
}

async function endpoints(folio: TestFolio): Promise<number> {
  const rs = await folio.deps.store.db.execute("SELECT COUNT(*) AS n FROM webhook_endpoints");
  return Number(rs.rows[0].n);
}

for (
  const [portal, signIn, home] of [
    ["publisher console", demoVisitor, "/publisher"],
    ["buyer portal", async (f: TestFolio) => (await portalSignUp(f)).visitor, "/buyer"],
  ] as const
) {
  Deno.test(`issue 42: the ${portal}'s forms without a valid token get the expired-form page and change nothing`, async () => {
    await using folio = await testFolio();
    const visitor = await signIn(folio);
    const form = `${home}/webhooks`;
    const page = await visitor.get(form);
    const good = { url: "https://hooks.example.com/in", events: "statement.closed" };
    const before = await endpoints(folio);
    const origin = new URL(folio.config.baseUrl).origin;
    const attempts: [string, Record<string, string>, string | null][] = [
      ["missing", good, `${origin}${form}?page=1`],
      ["wrong", { ...good, _csrf: "x".repeat(32) }, `${origin}${form}`],
      ["another site's referer", { ...good, _csrf: "" }, "https://evil.example/publisher/x"],
      ["no referer", { ...good, _csrf: "" }, null],
    ];
    for (const [why, fields, referer] of attempts) {
      const res = await postFrom(folio, visitor, `${form}/add`, fields, referer);
      assert.equal(res.status, 403, why);
      const text = textOf(res.html);
      assert.match(text, /This form has expired/, why);
      assert.match(text, /Nothing was changed/, why);
      assert.match(text, /send it once more/, why);
      assert.doesNotMatch(text, /X-CSRF-Token|csrf/i, "no API words");
      const back = /<a href="([^"]*)">Back to the form<\/a>/.exec(res.html)?.[1];
      const expected = referer?.startsWith(origin)
        ? new URL(referer).pathname + new URL(referer).search
        : home;
      assert.equal(back?.replaceAll("&amp;", "&"), expected, why);
      assert.match(res.html, /<main[^>]*id="main"/);
    }
    assert.equal(await endpoints(folio), before, "no endpoint was added");
    // The same form with its token goes through.
    const sent = await visitor.post(`${form}/add`, { ...good, _csrf: hidden(page.html) });
    assert.equal(sent.status, 200, sent.html);
    assert.equal(await endpoints(folio), before + 1);
  });
}
