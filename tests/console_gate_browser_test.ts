/**
 * The console's crawler-gate page in Debian's Chromium (issue 33): configuration for nginx, Caddy
 * and Traefik with the fail-safe chosen in its form, the reverse-proxy setting under Settings,
 * and the page without a verified domain. Each passes axe-core with no serious or critical
 * violation.
 */
import assert from "node:assert/strict";
import { browserTest, submitForm, visitPage } from "./browser.ts";
import { addDemoLogin, DEMO_EMAIL } from "./console_activity_helpers.ts";
import { patchDemo } from "./fixtures/demo.ts";
import { PASSWORD } from "./manage_helpers.ts";

browserTest(
  "the crawler-gate page shows configuration to copy, and its fail-safe form works",
  async ({ folio, page, base }) => {
    await addDemoLogin(folio);
    await page.goto(`${base}/publisher/login`, { waitUntil: "load" });
    assert.equal(
      await submitForm(page, "form[action='/publisher/login']", {
        email: DEMO_EMAIL,
        password: PASSWORD,
      }),
      200,
    );
    await visitPage(page, `${base}/publisher/gate`, "gate");
    const html = await page.content();
    assert.match(html, /auth_request \/_folio_gate;/);
    assert.match(html, /forward-auth/);
    assert.match(html, /forwardAuth:/);
    assert.match(html, /Refuse known AI crawlers/);

    await page.click("input[name=whenDown][value=open]");
    assert.equal(
      await submitForm(page, "form[action='/publisher/gate']", { origin: "http://10.0.0.5:8080" }),
      200,
    );
    const url = new URL(page.url());
    assert.equal(url.searchParams.get("whenDown"), "open");
    const open = await page.content();
    assert.match(open, /proxy_pass http:\/\/10\.0\.0\.5:8080;/);
    // Open: no crawler is refused while Folio is down (only license.xml is, issue 40).
    assert.doesNotMatch(open, /return 503 &quot;The crawler gate|return 503 "The crawler gate/);

    // The reverse-proxy setting, under Settings.
    await visitPage(page, `${base}/publisher/settings`, "gate-settings");
    assert.ok(await page.$("input[name=originUrl]"));

    await patchDemo(folio, (p) => ({ ...p, customDomain: null }));
    await visitPage(page, `${base}/publisher/gate`, "gate-no-domain");
    assert.match(await page.content(), /verify it first/);
  },
);
