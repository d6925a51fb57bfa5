/**
 * The rights table across every surface (issue 29 item 1; docs/decisions/licensing.md "The rights
 * table"): every combination of the publisher's default rights, content rules and licenses held
 * goes through each place that shows or applies rights, over the real HTTP surfaces, and they must
 * agree with the table and with each other. The expected rights come from the table as written in
 * the decision record, computed here without the module under test.
 */
import assert from "node:assert/strict";
import { deleteRule, insertRule } from "../store/rules.ts";
import { USE_CASES } from "../store/vocabulary.ts";
import { portalSignUp } from "./buyer_helpers.ts";
import { patchDemo } from "./fixtures/demo.ts";
import { testFolio } from "./helpers.ts";
import {
  allDefaults,
  expected,
  finds,
  outcomeFor,
  publicSurfaces,
  reads,
  type Rights,
  setUp,
  words,
} from "./rights_table_helpers.ts";

Deno.test("the rights table: every default x held license agrees on every surface", async (t) => {
  await using folio = await testFolio({ env: { FOLIO_COUNTRY_HEADER: "cf-ipcountry" } });
  const { callers, article } = await setUp(folio);
  const portal = await portalSignUp(folio);
  for (const defaults of allDefaults()) {
    const label = USE_CASES.filter((u) => defaults[u]).join("+") || "nothing";
    await t.step(`defaults: ${label}`, async () => {
      await patchDemo(folio, (p) => ({ ...p, rights: defaults }));
      const pub = await publicSurfaces(folio, portal);
      const anyone = words(expected(defaults, []));
      assert.deepEqual(pub.catalog, anyone, "catalog");
      assert.deepEqual(pub.card, anyone, "MCP card");
      assert.deepEqual(pub.terms, anyone, "terms page");
      assert.deepEqual(pub.portal, anyone, "buyer portal");
      const yn = (b: boolean) => (b ? "yes" : "no");
      assert.deepEqual(pub.robots, {
        search: yn(defaults.rag),
        aiInput: yn(defaults.display || defaults.summarization || defaults.rag),
        aiTrain: yn(defaults.fine_tuning),
      }, "robots.txt");
      assert.equal(pub.xmlProhibits.includes("ai-train"), !defaults.fine_tuning, "license.xml");
      assert.equal(pub.xmlProhibits.includes("search"), !defaults.rag, "license.xml");
      for (const caller of callers) {
        const want = expected(defaults, caller.uses);
        const where = `${caller.name} under ${label}`;
        const read = await reads(folio, caller, article, {});
        const outcome = outcomeFor(want);
        assert.deepEqual(read.status, { rest: outcome, mcp: outcome, a2a: outcome }, where);
        assert.deepEqual(
          read.license,
          { rest: words(want), mcp: words(want), a2a: words(want) },
          where,
        );
        // Holding nothing, the license block says what the public documents say.
        if (caller.uses.length === 0) assert.deepEqual(read.license.rest, pub.catalog, where);
        const found = await finds(folio, caller, {});
        const rag = want.rag;
        assert.deepEqual(found.found, {
          rest: rag,
          passages: rag,
          mcp: rag,
          mcpPassages: rag,
          list: rag,
          a2a: rag,
        }, where);
      }
    });
  }
});

Deno.test("the rights table: content rules withhold whatever is held, alike on every surface", async (t) => {
  await using folio = await testFolio({ env: { FOLIO_COUNTRY_HEADER: "cf-ipcountry" } });
  const { callers, article } = await setUp(folio);
  const db = folio.store.db;
  const now = folio.clock.now();
  // A few defaults are enough here: rules are applied after rights, whatever they are.
  const defaults: Rights[] = [
    { summarization: true, display: true, rag: true, fine_tuning: false },
    { summarization: true, display: false, rag: false, fine_tuning: false },
    { summarization: false, display: false, rag: false, fine_tuning: true },
  ];
  const rules = [
    {
      name: "territory denial",
      rule: { match: { territories: ["FR"] }, action: { deny: true } },
      outcome: "territory_blocked",
      search: { rest: 451, passages: 451, mcp: "territory_blocked", a2a: "rejected" },
    },
    {
      name: "BLOCKED rule",
      rule: { match: { path: "/" }, action: { policy: "BLOCKED" as const } },
      outcome: "blocked",
      search: { rest: 200, passages: 200, mcp: "ok", a2a: "completed" },
    },
  ];
  for (const r of rules) {
    await insertRule(db, "pub_demo", { id: "rul_table", priority: 1, ...r.rule, now });
    for (const d of defaults) {
      const label = USE_CASES.filter((u) => d[u]).join("+") || "nothing";
      await t.step(`${r.name}, defaults ${label}`, async () => {
        await patchDemo(folio, (p) => ({ ...p, rights: d }));
        for (const caller of callers) {
          const where = `${caller.name}: ${r.name} under ${label}`;
          const read = await reads(folio, caller, article, { "cf-ipcountry": "FR" });
          assert.deepEqual(read.status, { rest: r.outcome, mcp: r.outcome, a2a: r.outcome }, where);
          const found = await finds(folio, caller, { "cf-ipcountry": "FR" });
          assert.deepEqual(Object.values(found.found).some(Boolean), false, where);
          // Search is withheld, not empty, when the territory rule withholds it all (item 7);
          // it is empty when nothing could match anyway.
          if (r.outcome === "blocked" || expected(d, caller.uses).rag || r.search.rest === 451) {
            assert.deepEqual(found.statuses, r.search, where);
          }
        }
      });
    }
    await deleteRule(db, "pub_demo", "rul_table");
  }
});
