/**
 * Issue 11's walk, in Chromium, as a publisher who never saw the API: sign up, brand the page,
 * upload a CSV, watch the job finish, set a PAYWALL rule, see an agent's read in the calls with who
 * read it, and approve a license request. The agent is a real MCP SDK client with a buyer key.
 */
import assert from "node:assert/strict";
import { browserTest, pageText as text, screenshot, submitForm, visitPage } from "./browser.ts";
import { pageSpec } from "./fixtures/article_pages.ts";
import { startPageServer } from "./fixtures/page_server.ts";
import { PASSWORD } from "./manage_helpers.ts";
import { connect } from "./mcp_helpers.ts";

const go = visitPage;

browserTest(
  "a new publisher runs Folio from the browser: sign up, brand, upload, rule, an agent's read, a license approved",
  async ({ folio, page, base }) => {
    await using site = startPageServer([pageSpec(1), pageSpec(2), pageSpec(3)]);

    // Sign up; the key is shown once.
    await go(page, `${base}/publisher/signup`, "walk-1-signup");
    assert.equal(
      await submitForm(page, "form[action='/publisher/signup']", {
        name: "Harbor Gazette",
        slug: "harbor-gazette",
        email: "editor@harbor.example",
        password: PASSWORD,
      }),
      200,
    );
    assert.match(await text(page), /shown only this once/);

    // Brand the page.
    await go(page, `${base}/publisher/settings`, "walk-2-settings");
    assert.equal(
      await submitForm(page, "form[action='/publisher/settings/profile']", {
        "branding.primaryColor": "#0f766e",
        description: "News from the harbor.",
      }),
      200,
    );
    assert.match(await text(page), /Profile and branding saved/);

    // Upload a CSV; the job starts by itself and its page follows it to the end.
    await go(page, `${base}/publisher/sources`, "walk-3-sources");
    const csv = [1, 2, 3].map((i) => `${site.origin}${pageSpec(i).path}`).join("\n");
    const csvPath = await Deno.makeTempFile({ suffix: ".csv" });
    await Deno.writeTextFile(csvPath, `url\n${csv}\n`);
    const input = await page.$("input[type=file][name=file]");
    await input!.uploadFile(csvPath);
    await submitForm(page, "form[enctype='multipart/form-data']");
    assert.match(new URL(page.url()).pathname, /^\/publisher\/jobs\//);
    const deadline = Date.now() + 60_000;
    while (!/succeeded|finished|failed|cancelled/i.test(await page.title())) {
      assert.ok(Date.now() < deadline, "the job finished");
      await new Promise((r) => setTimeout(r, 500));
      await page.reload({ waitUntil: "load" });
    }
    assert.match(await text(page), /3 of 3 done/);
    await screenshot(page, "walk-4-job");

    // A PAYWALL rule for the news section.
    await go(page, `${base}/publisher/rules`, "walk-5-rules");
    assert.equal(
      await submitForm(page, "form[action='/publisher/rules']", {
        path: "/news/",
        policy: "PAYWALL",
        priceUsd: "0.05",
      }),
      200,
    );
    assert.match(await text(page), /Articles under \/news\/: PAYWALL at \$0\.05 per read/);

    // An agent with a buyer key reads an article over MCP, and asks for a fine-tuning license.
    const buyer = await (await fetch(`${base}/api/marketplace/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Acme AI", email: "ml@acme.example" }),
    })).json();
    const publisherId = await page.$eval(
      ".copy [data-copy*='/api/mcp/']",
      (el) => el.getAttribute("data-copy")!.split("/").pop()!,
    ).catch(async () => {
      await page.goto(`${base}/publisher`);
      return await page.$eval(
        ".copy [data-copy*='/api/mcp/']",
        (el) => el.getAttribute("data-copy")!.split("/").pop()!,
      );
    });
    {
      await using client = await connect(folio, {
        publisherId,
        headers: { authorization: `Bearer ${buyer.apiKey}` },
      });
      const read = await client.callTool({
        name: "get_article",
        arguments: {
          url_or_id: `${site.origin}${pageSpec(1).path}`,
          last_user_prompt: "What happened at the harbor?",
        },
      });
      assert.equal(read.isError ?? false, false, JSON.stringify(read));
      const asked = await client.callTool({
        name: "request_license",
        arguments: {
          use_case: "fine_tuning",
          message: "We would like to fine-tune on your archive.",
        },
      });
      assert.equal(asked.isError ?? false, false, JSON.stringify(asked));
    }
    await folio.deps.callLog.flush();

    // The read shows in the calls, with who read it.
    await go(page, `${base}/publisher/calls`, "walk-6-calls");
    const calls = await text(page);
    assert.match(calls, /Read article\s+MCP/);
    assert.match(calls, /Acme AI/);

    // Approve the request with a price and a term.
    await go(page, `${base}/publisher/requests`, "walk-7-requests");
    assert.match(await text(page), /fine/i);
    const approve = "form[action$='/approve']";
    assert.equal(await submitForm(page, approve, { priceUsd: "500", termMonths: "12" }), 200);
    assert.match(await text(page), /approved/i);
    await screenshot(page, "walk-8-approved");

    // The overview now shows the read, and the checklist has moved on.
    await go(page, `${base}/publisher`, "walk-9-overview");
    assert.match(await text(page), /1\s+article reads/);
  },
  { env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } },
);
