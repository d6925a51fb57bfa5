/**
 * A real crawler-like client (scripts/crawl.ts, plain fetch with the dialect's headers) pays for
 * and receives an article over a socket (issue 13); the publisher then sees the read in its calls
 * and earnings and the buyer on its statement.
 */
import assert from "node:assert/strict";
import { json, startTestFolio } from "./helpers.ts";
import { bodySample, demoPath } from "./landing_helpers.ts";

Deno.test("scripts/crawl.ts pays for a PAYWALL page end to end; both sides see it", async () => {
  await using folio = await startTestFolio();
  const paywall = await demoPath(folio, "PAYWALL");
  const signup = await json<{ apiKey: string }>(
    await folio.request("/api/marketplace/signup", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Crawl Co", email: "crawl@example.test" }),
    }),
  );
  const port = new URL(folio.url).port;
  const run = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      `--lock=${new URL("../deno.lock", import.meta.url).pathname}`,
      "--allow-net",
      "--allow-env",
      "scripts/crawl.ts",
      "--url",
      `http://demo.localhost:${port}${paywall.path}`,
      "--max-price",
      "USD 0.50",
      "--proxy",
      `127.0.0.1:${port}`,
    ],
    env: { FOLIO_BUYER_KEY: signup.apiKey, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = new TextDecoder().decode(run.stdout);
  assert.equal(run.code, 0, `${out}\n${new TextDecoder().decode(run.stderr)}`);
  const result = JSON.parse(out.trim().split("\n").at(-1)!);
  assert.equal(result.status, 200);
  // The proactive flow: the key and crawler-max-price up front, charged the page's price.
  assert.match(result.charged ?? "", /^USD 0\.\d+$/, out);

  // The page the script received is the whole article.
  const page = await folio.request(paywall.path, {
    host: "demo.localhost",
    headers: {
      "user-agent": "GPTBot/1.2",
      authorization: `Bearer ${signup.apiKey}`,
      "crawler-exact-price": result.charged,
    },
  });
  assert.ok((await page.text()).includes(await bodySample(folio, paywall.id)));

  const publisher = { authorization: `Bearer ${folio.seeded!.apiKey}` };
  await folio.deps.callLog.flush();
  const calls = await json<{ calls: { tool: string; status: string }[] }>(
    await folio.request("/api/publisher/calls?limit=20", { headers: publisher }),
  );
  assert.ok(calls.calls.some((c) => c.tool === "_landing:article" && c.status === "ok"));
  const earnings = await json<{ months: { landingUsdCents: number; chargedReads: number }[] }>(
    await folio.request("/api/publisher/earnings", { headers: publisher }),
  );
  assert.equal(earnings.months[0].chargedReads, 2);
  assert.ok(earnings.months[0].landingUsdCents > 0);
  const statement = await json<
    { lines: { kind: string; quantity?: number }[]; totalUsdCents: number }
  >(
    await folio.request("/api/marketplace/statement", {
      headers: { authorization: `Bearer ${signup.apiKey}` },
    }),
  );
  assert.ok(statement.lines.some((l) => l.kind === "landing"));
  assert.ok(statement.totalUsdCents > 0);
});
