/**
 * The management API's traffic and call-log operations (issue 34): calls per caller per day, top
 * articles, and the call list's date range, filters, cursor and CSV, with their refusals.
 */
import assert from "node:assert/strict";
import { insertCalls } from "../store/call_log.ts";
import { demoIds } from "./fixtures/demo.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { bearer, signUp } from "./manage_helpers.ts";

// deno-lint-ignore no-explicit-any
type Body = Record<string, any>;

const DAY_MS = 86_400_000;

async function call(folio: TestFolio, path: string, key = folio.seeded!.apiKey) {
  return await folio.request(path, { headers: bearer(key) });
}

async function body(folio: TestFolio, path: string): Promise<Body> {
  const res = await call(folio, path);
  assert.equal(res.status, 200, path);
  return await json<Body>(res);
}

/** A crawler, an anonymous reader and an agent that asked for a missing page, a day apart. */
async function traffic(folio: TestFolio) {
  const [open] = await demoIds(folio, "OBSERVE");
  const now = folio.clock.now().getTime();
  const row = (ago: number, identity: string | null, extra: Body = {}) => ({
    publisherId: "pub_demo",
    at: new Date(now - ago * DAY_MS),
    surface: "landing" as const,
    tool: "_landing:article",
    userAgent: "GPTBot/1.2",
    latencyMs: 4,
    status: "ok" as const,
    httpStatus: 200,
    identity,
    articleId: open,
    ...extra,
  });
  await insertCalls(folio.store.db, [
    row(2, "crawler:GPTBot"),
    row(1, "crawler:GPTBot"),
    row(1, "ip:198.51.100.4", { surface: "rest", tool: "_rest:get_article" }),
    row(0, "crawler:GPTBot", {
      status: "error",
      httpStatus: 404,
      articleId: null,
      userAgent: '=HYPERLINK("http://evil.example")',
    }),
    row(40, "crawler:ClaudeBot"),
  ]);
  return open;
}

Deno.test("traffic per caller per day names crawlers, sums the rest, and refuses a bad window", async () => {
  await using folio = await testFolio();
  await traffic(folio);
  const t = await body(folio, "/api/publisher/analytics/traffic?days=7");
  assert.equal(t.dayLabels.length, 7);
  assert.equal(t.to, folio.clock.now().toISOString().slice(0, 10));
  assert.deepEqual(t.series.map((s: Body) => [s.agent, s.total]), [
    [{ key: "crawler:GPTBot", kind: "crawler", name: "GPTBot (OpenAI)" }, 3],
    [{ key: "anonymous", kind: "anonymous", name: "Anonymous" }, 1],
  ]);
  assert.deepEqual(t.series[0].daily.slice(-3), [1, 1, 1]);
  assert.equal(t.total, 4, "ClaudeBot's call is 40 days old");
  const top1 = await body(folio, "/api/publisher/analytics/traffic?days=7&top=1");
  assert.deepEqual(top1.others, { callers: 1, total: 1, daily: [0, 0, 0, 0, 0, 1, 0] });
  for (const q of ["days=0", "days=91", "days=abc", "top=13", "limit=3"]) {
    const res = await call(folio, `/api/publisher/analytics/traffic?${q}`);
    assert.equal(res.status, 400, q);
    assert.equal((await json<Body>(res)).error.code, "invalid_request");
  }
  const other = await signUp(folio);
  const theirs = await json<Body>(
    await call(folio, "/api/publisher/analytics/traffic", other.apiKey),
  );
  assert.deepEqual([theirs.series, theirs.total], [[], 0]);
});

Deno.test("top articles count successful reads and per-read earnings", async () => {
  await using folio = await testFolio();
  const open = await traffic(folio);
  const top = await body(folio, "/api/publisher/analytics/articles?days=30");
  assert.equal(top.by, "reads");
  assert.deepEqual(top.articles.map((a: Body) => [a.id, a.reads, a.earningsUsdCents]), [
    [open, 3, 0],
  ]);
  assert.match(top.articles[0].title, /\S/);
  const earned = await body(folio, "/api/publisher/analytics/articles?by=earnings&limit=1");
  assert.equal(earned.articles.length, 1);
  for (const q of ["by=money", "limit=0", "limit=51"]) {
    assert.equal((await call(folio, `/api/publisher/analytics/articles?${q}`)).status, 400, q);
  }
});

Deno.test("calls by date range, outcome, caller and article; pages by cursor; refusals name the field", async () => {
  await using folio = await testFolio();
  const open = await traffic(folio);
  const today = folio.clock.now().toISOString().slice(0, 10);
  const yesterday = new Date(folio.clock.now().getTime() - DAY_MS).toISOString().slice(0, 10);
  const all = await body(folio, "/api/publisher/calls");
  assert.equal(all.total, 5);
  const range = await body(folio, `/api/publisher/calls?from=${yesterday}&to=${yesterday}`);
  assert.equal(range.total, 2);
  assert.equal((await body(folio, `/api/publisher/calls?from=${today}`)).total, 1);
  const missing = await body(folio, "/api/publisher/calls?outcome=not_found");
  assert.deepEqual(missing.calls.map((c: Body) => [c.outcome, c.httpStatus]), [["not_found", 404]]);
  assert.equal((await body(folio, "/api/publisher/calls?agent=anonymous")).total, 1);
  assert.equal((await body(folio, "/api/publisher/calls?agent=crawler:GPTBot")).total, 3);
  assert.equal((await body(folio, `/api/publisher/calls?article=${open}`)).total, 4);
  assert.equal((await body(folio, "/api/publisher/calls?only=reads&surface=rest")).total, 1);

  // Pages of two cover every call once, newest first.
  const seen: number[] = [];
  let cursor: string | null = "";
  while (cursor !== null) {
    const page: Body = await body(
      folio,
      `/api/publisher/calls?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
    );
    assert.equal(page.total, 5);
    seen.push(...page.calls.map((c: Body) => Date.parse(c.at)));
    cursor = page.nextCursor;
  }
  assert.equal(seen.length, 5);
  assert.deepEqual(seen, [...seen].sort((a, b) => b - a));

  const refusals: [string, string][] = [
    ["from=2026-02-30", "from"],
    ["from=yesterday", "from"],
    [`from=${today}&to=${yesterday}`, "to"],
    ["surface=web", "surface"],
    ["outcome=maybe", "outcome"],
    ["limit=501", "limit"],
    ["cursor=abc", "cursor"],
    ["only=writes", "only"],
    ["page=2", "page"],
  ];
  for (const [q, param] of refusals) {
    const res = await call(folio, `/api/publisher/calls?${q}`);
    assert.equal(res.status, 400, q);
    const error = (await json<Body>(res)).error;
    assert.equal(error.param, param, `${q}: ${error.message}`);
  }
});

Deno.test("the calls CSV keeps the filters and defuses formulas", async () => {
  await using folio = await testFolio();
  await traffic(folio);
  const res = await call(folio, "/api/publisher/calls/csv?agent=crawler:GPTBot");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/csv/);
  assert.equal(
    res.headers.get("content-disposition"),
    'attachment; filename="folio-calls-all.csv"',
  );
  const lines = (await res.text()).trim().split("\r\n");
  assert.equal(lines.length, 4, "a header and GPTBot's three calls");
  assert.match(
    lines[1],
    /^"[^"]+","landing","_landing:article","not_found","404","GPTBot \(OpenAI\)"/,
  );
  assert.ok(lines[1].includes(`"'=HYPERLINK(""http://evil.example"")"`), lines[1]);
  const bad = await call(folio, "/api/publisher/calls/csv?to=2026-13-01");
  assert.equal(bad.status, 400);
  assert.equal((await json<Body>(bad)).error.param, "to");
  const other = await signUp(folio);
  const theirs = await (await call(folio, "/api/publisher/calls/csv", other.apiKey)).text();
  assert.equal(theirs.trim().split("\r\n").length, 1, "only the header");
});
