/**
 * The publisher console in Debian's Chromium: a publisher who never saw the API signs up, brands
 * its page, and every console page renders, submits its main form and passes axe-core with no
 * serious or critical violation. Screenshots go to FOLIO_SCREENSHOTS when it is set.
 */
import assert from "node:assert/strict";
import { browserTest, checkPage, screenshotOf, submitForm, visitPage } from "./browser.ts";
import { PASSWORD } from "./manage_helpers.ts";

browserTest(
  "a publisher signs up, brands its page and visits every console page in Chromium",
  async ({ page, base }) => {
    await visitPage(page, base + "/publisher/signup", "console-signup");
    const status = await submitForm(page, "form[action='/publisher/signup']", {
      name: "Harbor Gazette",
      slug: "harbor-gazette",
      email: "editor@harbor.example",
      password: PASSWORD,
    });
    assert.equal(status, 200);
    const key = await page.$eval(".secret", (el) => el.textContent);
    assert.match(key ?? "", /^pk_/);
    await checkPage(page, "console-welcome");

    await visitPage(page, base + "/publisher", "console-overview");
    assert.match(await page.content(), /Getting started/);

    await visitPage(page, base + "/publisher/settings", "console-settings");
    await page.type("#color", "#0f766e");
    const previewColor = await page.$eval(
      "#branding-preview",
      (el) => (el as HTMLElement).style.getPropertyValue("--accent"),
    );
    assert.equal(previewColor, "#0f766e", "the preview follows the colour as it is typed");
    assert.equal(
      await submitForm(page, "form[action='/publisher/settings/profile']", {
        description: "News from the harbor, every morning.",
      }),
      200,
    );
    assert.match(await page.content(), /Profile and branding saved/);
    await checkPage(page, "console-settings-saved");

    // Agent payments: the switch, a price, the defaults and one crawler of its own.
    await page.click("input[name='agentPayments.enabled']");
    assert.equal(
      await submitForm(page, "form[action='/publisher/settings/agent-payments']", {
        "agentPayments.crawlerPriceUsd": "0.02",
        "agentPayments.defaultAction": "charge",
        "agentPayments.userFetchers": "reader",
        "crawler.GPTBot": "block",
        "crawler.PerplexityBot": "allow",
      }),
      200,
    );
    assert.match(await page.content(), /Agent payments saved/);
    assert.equal(await page.$eval("select[name='crawler.GPTBot']", (s) => s.value), "block");
    await checkPage(page, "console-settings-agent-payments");
    await screenshotOf(page, "#agent-payments", "console-agent-payments");

    // A custom domain waits for proof: the page shows the exact TXT record and Verify now.
    assert.equal(
      await submitForm(page, "form[action='/publisher/settings/domain']", {
        customDomain: "news.harbor.org",
      }),
      200,
    );
    assert.match(await page.content(), /_folio-challenge\.news\.harbor\.org/);
    assert.ok(await page.$("form[action='/publisher/settings/domain/verify']"));
    await checkPage(page, "console-settings-domain-pending");

    // The catalog pages, empty for a new publisher, each say what to do next.
    for (
      const [path, shot] of [
        ["/publisher/sources", "console-sources"],
        ["/publisher/books", "console-books"],
        ["/publisher/articles", "console-articles"],
        ["/publisher/rules", "console-rules"],
        ["/publisher/rules?url=%2Fnews%2Fa&country=DE", "console-rules-explain"],
        ["/publisher/account", "console-account"],
      ]
    ) await visitPage(page, base + path, shot);
  },
);

browserTest(
  "the console sign-in page passes axe-core and signs a publisher in",
  async ({ folio, page, base }) => {
    const signup = await folio.request("/api/publishers/signup", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "Signed In",
        slug: "signed-in",
        email: "in@example.test",
        password: PASSWORD,
      }),
    });
    assert.equal(signup.status, 201);
    await visitPage(page, base + "/publisher/login", "console-login");
    assert.equal(
      await submitForm(page, "form[action='/publisher/login']", {
        email: "in@example.test",
        password: PASSWORD,
      }),
      200,
    );
    assert.equal(new URL(page.url()).pathname, "/publisher");
  },
);

browserTest(
  "Settings loads without a script error and the preview keeps the name as a colour is typed",
  async ({ page, base }) => {
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(String(err)));
    await page.goto(base + "/publisher/signup", { waitUntil: "load" });
    await submitForm(page, "form[action='/publisher/signup']", {
      name: "Tide Tables",
      slug: "tide-tables",
      email: "editor@tide.example",
      password: PASSWORD,
    });
    await visitPage(page, base + "/publisher/settings", "console-settings-preview");
    await page.type("#color", "#0f766e");
    const title = await page.$eval("[data-preview=name]", (el) => el.textContent);
    assert.equal(title?.trim(), "Tide Tables", "typing a colour leaves the name in the preview");
    await page.$eval("[name='name']", (el) => (el as HTMLInputElement).value = "");
    await page.type("[name='name']", "Tide Times");
    const renamed = await page.$eval("[data-preview=name]", (el) => el.textContent);
    assert.equal(renamed, "Tide Times", "the preview follows the name as it is typed");
    assert.deepEqual(errors, [], "no script error on any page");
  },
);
