/**
 * The page headers (server/platform/security_headers.ts) as Chromium enforces them: every kind of page,
 * opened WITHOUT the CSP bypass the other browser tests use for axe-core, raises no Content-
 * Security-Policy violation, and what the pages do still works: the portals' and the reference's
 * own scripts run, logos load, and the OAuth consent form posts and comes back to the client.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { DEMO_CONSOLE_EMAIL } from "../server/seed/demo.ts";
import { browserAvailable, launchBrowser, submitForm } from "./browser.ts";
import { startTestFolio } from "./helpers.ts";
import { demoPath } from "./landing_helpers.ts";
import { PASSWORD } from "./manage_helpers.ts";
import { authParams, randomPkce, REDIRECT, registerClient, setToggles } from "./oauth_helpers.ts";

/** A publisher's logo (logos are https URLs: server/surfaces/manage/schemas.ts). */
const LOGO_URL = "https://logos.example/logo.svg";
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">` +
  `<rect width="40" height="40" fill="#0f766e"/></svg>`;

/**
 * Every violation the tab reports, kept across navigations: the page's securitypolicyviolation
 * events (also counted in the page as `cspViolations`) and Chromium's console lines about CSP.
 */
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction("reportCspViolation", (v: string) => seen.push(v));
  await page.evaluateOnNewDocument(() => {
    // deno-lint-ignore no-explicit-any
    const w = globalThis as any;
    w.cspViolations = 0;
    document.addEventListener("securitypolicyviolation", (e) => {
      w.cspViolations++;
      w.reportCspViolation(`${location.pathname}: ${e.effectiveDirective} ${e.blockedURI}`);
    });
  });
  page.on("console", (m) => {
    if (/Content Security Policy/.test(m.text())) seen.push(`${page.url()}: ${m.text()}`);
  });
  return seen;
}

/** Opens `url` and requires `status`. */
async function open(page: Page, url: string, status = 200): Promise<void> {
  const res = await page.goto(url, { waitUntil: "load" });
  assert.equal(res?.status(), status, url);
}

/** Whether the image `selector` loaded. */
function loaded(page: Page, selector: string): Promise<boolean> {
  return page.$eval(selector, (img) => (img as HTMLImageElement).naturalWidth > 0);
}

Deno.test({
  name: "every kind of page runs under its CSP in Chromium with no violation",
  ignore: !browserAvailable(),
  // Chromium's pipes and the page server outlive a test's own resources by design.
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using folio = await startTestFolio();
    const base = folio.url;
    const port = new URL(base).port;
    await setToggles(folio, "pub_demo", { consentScreen: true }, { logoUrl: LOGO_URL });

    await using browser = await launchBrowser();
    const page = await browser.newPage();
    const violations = await watchViolations(page);
    // The logo's host and the OAuth client are answered in the tab (neither is reachable); the
    // policy is checked before a request is made, so the pages' CSP still decides.
    await page.setRequestInterception(true);
    page.on("request", (r) => {
      if (r.url() === LOGO_URL) {
        r.respond({ status: 200, contentType: "image/svg+xml", body: LOGO });
      } else if (r.url().startsWith(REDIRECT)) {
        r.respond({ status: 200, body: "back at the client" });
      } else r.continue();
    });

    // The harness hears a violation: an image the reference's policy does not allow.
    await open(page, `${base}/docs`);
    await page.evaluate(() => {
      const img = document.createElement("img");
      img.src = "https://images.example/not-allowed.png";
      document.body.append(img);
    });
    // deno-lint-ignore no-explicit-any
    await page.waitForFunction(() => (globalThis as any).cspViolations > 0);
    assert.ok(violations.some((v) => v.includes("img-src")), violations.join("\n"));
    violations.length = 0;

    // Platform pages with no script of their own; their policy lets the icon they link load.
    await open(page, `${base}/`);
    await page.evaluate(() => {
      const img = document.createElement("img");
      img.id = "icon";
      img.alt = "";
      img.src = "/favicon.svg";
      document.body.append(img);
    });
    await page.waitForFunction(() =>
      (document.getElementById("icon") as HTMLImageElement).complete
    );
    assert.ok(await loaded(page, "#icon"), "the icon loads under the document policy");
    await open(page, `${base}/no/such/page`, 404);
    await open(page, `${base}/license/pub_demo`);
    await open(page, `${base}/status`);
    // The reference's copy.js reveals the copy buttons.
    await open(page, `${base}/docs`);
    await page.waitForSelector(".copy-button:not([hidden])");

    // The console: sign in by the form, then console.js drives the branding preview.
    await open(page, `${base}/publisher/login`);
    const signedIn = await submitForm(page, "form[action='/publisher/login']", {
      email: DEMO_CONSOLE_EMAIL,
      password: folio.seeded!.consolePassword,
    });
    assert.equal(signedIn, 200);
    await open(page, `${base}/publisher/settings`);
    assert.ok(await loaded(page, "#branding-preview img"), "the logo in the preview loads");
    await page.$eval("#color", (el) => (el as HTMLInputElement).value = "");
    await page.type("#color", "#0f766e");
    const accent = await page.$eval(
      "#branding-preview",
      (el) => (el as HTMLElement).style.getPropertyValue("--accent"),
    );
    assert.equal(accent, "#0f766e", "console.js runs");

    // The buyer portal: sign up; console.js reveals the key's copy button.
    await open(page, `${base}/buyer/signup`);
    const signedUp = await submitForm(page, "form[action='/buyer/signup']", {
      name: "Acme AI",
      email: "ml@acme.example",
      password: PASSWORD,
    });
    assert.equal(signedUp, 200);
    await page.waitForSelector(".copy-button:not([hidden])");
    await open(page, `${base}/buyer/catalog`);

    // OAuth: the consent page shows the logo, and Allow goes back to the client with a code.
    const clientId = await registerClient(folio);
    const { challenge } = await randomPkce();
    const query = new URLSearchParams(
      authParams(folio, clientId, challenge) as Record<string, string>,
    );
    await open(page, `${base}/api/oauth/authorize?${query}`);
    assert.ok(await loaded(page, "header img"), "the publisher's logo loads");
    await page.type("input[name='email']", "reader@example.test");
    await page.click("input[name='accept_terms']");
    await Promise.all([page.waitForNavigation(), page.click("button[value='approve']")]);
    const back = new URL(page.url());
    assert.equal(`${back.origin}${back.pathname}`, REDIRECT, await page.content());
    assert.ok(back.searchParams.get("code"), "the client gets a code");

    // The publisher's site on its own domain: home with the logo, a free and a paywalled article.
    const site = `http://demo.localhost:${port}`;
    await open(page, `${site}/`);
    assert.ok(await loaded(page, ".brand img"), "the site's logo loads");
    await open(page, `${site}${(await demoPath(folio, "OBSERVE")).path}`);
    await open(page, `${site}${(await demoPath(folio, "PAYWALL")).path}`);
    await open(page, `${site}/no/such/page`, 404);

    assert.deepEqual(violations, [], "no page breaks its own policy");
  },
});
