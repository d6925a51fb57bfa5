/**
 * The /status page in Chromium (docs/TEST-PLAN.md section 8): verdicts, probe history, incidents and
 * per-surface charts from generated history; 0 serious axe violations; works without JavaScript.
 */
import assert from "node:assert/strict";
import { axeViolations, browserAvailable, launchBrowser, openPage, screenshot } from "./browser.ts";
import { emptyFigures, generateHistory } from "./fixtures/status.ts";
import { startTestFolio, testFolio } from "./helpers.ts";

const DAY = 86_400_000;

Deno.test({
  name:
    "the status page shows verdicts, probe history, incidents and charts, accessibly, without JavaScript",
  ignore: !browserAvailable(),
  async fn() {
    await using folio = await startTestFolio();
    const db = folio.store.db;
    await emptyFigures(db);
    const now = folio.clock.now();
    // 30 days: an MCP outage of 8 hours three days ago, one slow day, 0.1% server errors.
    const outage = now.getTime() - 3 * DAY;
    await generateHistory(db, now, {
      hours: 30 * 24,
      perHour: 6,
      probeEvery: 5,
      failing: (at) => at.getTime() > outage && at.getTime() <= outage + 8 * 3_600_000,
      slow: (at) => Math.floor((now.getTime() - at.getTime()) / DAY) === 5 ? 400 : 0,
      errorsEvery: 1000,
    });
    await using browser = await launchBrowser();
    const page = await openPage(browser);
    await page.setJavaScriptEnabled(false);
    await page.setViewport({ width: 1100, height: 900 });
    const res = await page.goto(`${folio.url}/status?days=30`);
    assert.equal(res?.status(), 200);
    assert.match(res!.headers()["content-security-policy"], /frame-ancestors 'none'/);
    const text = await page.$eval("main, body", (el) => (el as HTMLElement).innerText);
    assert.match(text, /Service status/);
    assert.match(text, /Availability/);
    assert.match(text, /Search latency p95/);
    assert.match(text, /Error rate/);
    assert.match(text, /MCP initialize answered HTTP 503/);
    assert.match(text, /REST API/);
    const cards = await page.$$eval(".card .badge", (els) => els.map((e) => e.textContent));
    assert.deepEqual(cards, ["Missed", "Met", "Met"], "the outage misses 99.9%");
    assert.equal(await page.$$eval("svg.chart", (els) => els.length), 4, "2 surfaces × 2 charts");
    assert.equal(await page.$$eval(".strip span", (els) => els.length), 30);
    assert.equal(await page.$$eval(".strip .tick-bad", (els) => els.length), 1);
    assert.equal(
      await page.$eval(".windows a[aria-current=page]", (e) => e.textContent),
      "30 days",
    );
    await screenshot(page, "status-30-days");
    await page.setJavaScriptEnabled(true);
    await page.reload();
    assert.deepEqual(await axeViolations(page), []);

    // Another window is a link away, and the 24-hour strip is hourly.
    await page.click(".windows a[href='/status?days=1']");
    await page.waitForSelector(".windows a[aria-current=page]");
    assert.equal(await page.$$eval(".strip span", (els) => els.length), 24);
    await screenshot(page, "status-24-hours");
  },
});

Deno.test({
  name: "the status page of a new service says it is measuring, and explains an invalid window",
  ignore: !browserAvailable(),
  async fn() {
    await using folio = await startTestFolio();
    await emptyFigures(folio.store.db);
    await using browser = await launchBrowser();
    const page = await openPage(browser);
    await page.goto(`${folio.url}/status`);
    const text = await page.$eval("body", (el) => (el as HTMLElement).innerText);
    assert.match(text, /Measuring: not enough data yet/);
    assert.match(text, /No failed probe checks in this window/);
    assert.match(text, /No calls in this window yet/);
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, "status-empty");

    const bad = await page.goto(`${folio.url}/status?days=365`);
    assert.equal(bad?.status(), 400);
    assert.match(
      await page.$eval("[role=alert]", (e) => e.textContent ?? ""),
      /days: must be a whole number from 1 to 90/,
    );
    assert.deepEqual(await axeViolations(page), []);
  },
});

Deno.test("the status page escapes what probes saw and renders without a browser too", async () => {
  await using folio = await testFolio();
  const db = folio.store.db;
  await emptyFigures(db);
  await db.execute({
    sql: `INSERT INTO probes (at, surface, publisher_id, ok, latency_ms, detail)
          VALUES (?, 'rest', 'pub_demo', 0, 5, ?)`,
    args: [folio.clock.now().getTime() - 60_000, `<script>alert(1)</script>"'`],
  });
  const res = await folio.request("/status?days=1");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/html; charset=UTF-8");
  const html = await res.text();
  assert.ok(!html.includes("<script>alert(1)"));
  assert.match(html, /&lt;script>alert\(1\)&lt;\/script>/);
  assert.match(html, /Some checks are failing now/);
});

Deno.test({
  name: "the status page fits a 375 px phone: wide tables scroll in their own frame",
  ignore: !browserAvailable(),
  async fn() {
    await using folio = await startTestFolio();
    const db = folio.store.db;
    await emptyFigures(db);
    const now = folio.clock.now();
    const outage = now.getTime() - 3 * DAY;
    await generateHistory(db, now, {
      hours: 7 * 24,
      perHour: 6,
      probeEvery: 5,
      failing: (at) => at.getTime() > outage && at.getTime() <= outage + 2 * 3_600_000,
      slow: () => 0,
      errorsEvery: 1000,
    });
    // A probe's detail with no space to break at, as a long URL or token would be.
    await db.execute({
      sql: `INSERT INTO probes (at, surface, publisher_id, ok, latency_ms, detail)
            VALUES (?, 'rest', 'pub_demo', 0, 5, ?)`,
      args: [now.getTime() - 60_000, `GET/api/v1/${"x".repeat(120)}answered-HTTP-503`],
    });
    await using browser = await launchBrowser();
    const page = await openPage(browser);
    await page.setViewport({ width: 375, height: 800 });
    for (const days of [1, 7]) {
      const res = await page.goto(`${folio.url}/status?days=${days}`);
      assert.equal(res?.status(), 200);
      const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
      assert.ok(width <= 375, `/status?days=${days} is ${width} px wide at 375 px`);
      await screenshot(page, `status-375-${days}`);
    }
    assert.deepEqual(await axeViolations(page), []);
  },
});
