/**
 * robots.txt escalation on the landing path never fails open (issue 28): until the origin's file is
 * known, and while it answers 5xx, 429 or nothing (RFC 9309 section 2.3.1.4), a crawler is
 * treated as disallowed and pays on OBSERVE pages; 4xx allows all; setting the robots origin asks
 * it at once; a failed answer is asked again an hour later.
 */
import assert from "node:assert/strict";
import { refreshRobots, robotsFetchesSettled } from "../server/domain/catalog/robots.ts";
import { patchDemo } from "./fixtures/demo.ts";
import { startPageServer } from "./fixtures/page_server.ts";
import { type TestFolio, testFolio } from "./helpers.ts";
import { demoPath, GPTBOT, visit } from "./landing_helpers.ts";
import { bearer, sendJson } from "./manage_helpers.ts";

const LOOPBACK = { env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } };
const CLAUDEBOT = "Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)";
const HOUR = 3600_000;

/** The status GPTBot (or `ua`) gets on the demo's first OBSERVE article, and its price header. */
async function crawl(folio: TestFolio, ua = GPTBOT): Promise<[number, string | null]> {
  const { path } = await demoPath(folio, "OBSERVE");
  const res = await visit(folio, path, { "user-agent": ua });
  await res.body?.cancel();
  return [res.status, res.headers.get("crawler-price")];
}

/** Sets the demo's robots origin through the management API, as the console does. */
async function setRobotsOrigin(folio: TestFolio, origin: string | null): Promise<void> {
  const body = { robotsOrigin: origin };
  const res = await sendJson(
    folio,
    "PATCH",
    "/api/publisher/settings",
    body,
    bearer(folio.seeded!.apiKey),
  );
  assert.equal(res.status, 200);
  await res.body?.cancel();
}

/** A port on 127.0.0.1 that nothing listens on: connecting to it is refused. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

Deno.test("robots escalation: before the origin's robots.txt is fetched, a crawler pays on OBSERVE", async () => {
  await using folio = await testFolio(LOOPBACK);
  await using site = startPageServer([], { robots: "User-agent: *\nAllow: /\n" });
  // Stored directly: no settings change, so nothing has asked the origin yet.
  await patchDemo(folio, (p) => ({ ...p, robotsOrigin: site.origin }));
  const [status, price] = await crawl(folio);
  assert.equal(status, 402, "unknown robots.txt: escalated, not served free");
  assert.ok(price, "the escalated answer quotes a price");
  // That visit asked the origin in the background; once it answered, its rules apply.
  await robotsFetchesSettled(folio.deps);
  assert.equal(site.hits.get("/robots.txt"), 1);
  assert.deepEqual(await crawl(folio), [200, null]);
});

Deno.test("robots escalation: 500, 503, 429 and a refused connection disallow all; 404 allows all", async () => {
  await using folio = await testFolio(LOOPBACK);
  for (const answer of [500, 503, 429, 404]) {
    await using site = startPageServer([], { robots: answer });
    await setRobotsOrigin(folio, site.origin);
    await robotsFetchesSettled(folio.deps);
    assert.ok(site.hits.get("/robots.txt")! >= 1, `${answer}: asked`);
    const [status] = await crawl(folio);
    assert.equal(status, answer === 404 ? 200 : 402, `robots.txt answering ${answer}`);
  }
  const refused = `http://127.0.0.1:${closedPort()}`;
  await setRobotsOrigin(folio, refused);
  await robotsFetchesSettled(folio.deps);
  const stored = await folio.deps.store.db.execute({
    sql: "SELECT status FROM robots WHERE origin = ?",
    args: [refused],
  });
  assert.equal(stored.rows[0].status, 0, "no answer is stored as unreachable");
  assert.equal((await crawl(folio))[0], 402, "connection refused");
  // A person is never escalated, whatever the origin says.
  const { path } = await demoPath(folio, "OBSERVE");
  const person = await visit(folio, path);
  assert.equal(person.status, 200);
  await person.body?.cancel();
});

Deno.test("robots escalation: a host Folio may not connect to stays unknown, so disallowed", async () => {
  await using folio = await testFolio(LOOPBACK);
  await setRobotsOrigin(folio, "http://10.0.0.1");
  await robotsFetchesSettled(folio.deps);
  assert.equal((await crawl(folio))[0], 402);
  await robotsFetchesSettled(folio.deps);
  assert.ok(folio.logLines.some((l) => l.includes("robots.txt host refused")));
});

Deno.test("robots escalation: after a successful fetch the origin's own rules apply, per crawler", async () => {
  await using folio = await testFolio(LOOPBACK);
  await using site = startPageServer([], {
    robots: "User-agent: GPTBot\nDisallow: /articles/\n\nUser-agent: *\nAllow: /\n",
  });
  await setRobotsOrigin(folio, site.origin);
  await robotsFetchesSettled(folio.deps);
  const [status, price] = await crawl(folio);
  assert.equal(status, 402);
  assert.ok(price);
  assert.deepEqual(await crawl(folio, CLAUDEBOT), [200, null]);
  assert.equal(site.hits.get("/robots.txt"), 1, "answered from the store, not refetched per page");
});

Deno.test("robots escalation: setting or changing the robots origin fetches its robots.txt", async () => {
  await using folio = await testFolio(LOOPBACK);
  await using a = startPageServer([]);
  await using b = startPageServer([]);
  await setRobotsOrigin(folio, a.origin);
  await robotsFetchesSettled(folio.deps);
  assert.equal(a.hits.get("/robots.txt"), 1, "set: fetched");
  await setRobotsOrigin(folio, b.origin);
  await robotsFetchesSettled(folio.deps);
  assert.equal(b.hits.get("/robots.txt"), 1, "changed: the new origin fetched");
  await setRobotsOrigin(folio, a.origin);
  await robotsFetchesSettled(folio.deps);
  assert.equal(a.hits.get("/robots.txt"), 2, "changed back at once: asked again");
  await setRobotsOrigin(folio, a.origin);
  await setRobotsOrigin(folio, null);
  await robotsFetchesSettled(folio.deps);
  assert.equal(a.hits.get("/robots.txt"), 2, "unchanged or cleared: not fetched again");
  assert.equal(b.hits.get("/robots.txt"), 1);
});

Deno.test("robots escalation: a 5xx answer is asked again after an hour, by a visit or the cron", async () => {
  await using folio = await testFolio(LOOPBACK);
  await using site = startPageServer([], { robots: 503 });
  await setRobotsOrigin(folio, site.origin);
  await robotsFetchesSettled(folio.deps);
  const asked = site.hits.get("/robots.txt")!;
  site.setRobots("User-agent: *\nAllow: /\n");
  folio.clock.advance(HOUR - 60_000 - 1);
  assert.equal((await crawl(folio))[0], 402, "within the hour: still the stored 503");
  await robotsFetchesSettled(folio.deps);
  assert.equal(site.hits.get("/robots.txt"), asked, "not asked again within the hour");
  folio.clock.advance(60_000 + 1);
  assert.equal((await crawl(folio))[0], 402, "the visit answers from the store while it asks");
  await robotsFetchesSettled(folio.deps);
  assert.equal(site.hits.get("/robots.txt"), asked + 1);
  assert.deepEqual(await crawl(folio), [200, null], "the new answer applies");

  // The cron: a failure is due after an hour, an answer only after a day.
  site.setRobots(500);
  folio.clock.advance(24 * HOUR);
  assert.equal(await refreshRobots(folio.deps), 1);
  assert.equal((await crawl(folio))[0], 402);
  site.setRobots("User-agent: *\nAllow: /\n");
  folio.clock.advance(HOUR);
  assert.equal(await refreshRobots(folio.deps), 1, "the failed answer is retried");
  assert.deepEqual(await crawl(folio), [200, null]);
  folio.clock.advance(HOUR);
  assert.equal(await refreshRobots(folio.deps), 0, "a good answer waits a day");
});

Deno.test("robots escalation: an article on the publisher's host here has no origin to ask", async () => {
  await using folio = await testFolio(LOOPBACK);
  // The demo's articles are at https://demo.localhost, its host on Folio: that robots.txt is
  // written from the settings already applied, so nothing is fetched and GPTBot reads free.
  assert.deepEqual(await crawl(folio), [200, null]);
  await robotsFetchesSettled(folio.deps);
  const rows = await folio.deps.store.db.execute("SELECT origin FROM robots");
  assert.equal(rows.rows.length, 0);
});
