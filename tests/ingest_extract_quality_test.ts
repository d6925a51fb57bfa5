/**
 * Extraction quality on the hand-written pages of tests/fixtures/extraction/: Folio is at least
 * plain Readability (with its own metadata) on title, author and date, and above a body floor.
 */
import assert from "node:assert/strict";
import {
  folioReading,
  loadFixtures,
  lostSections,
  readabilityReading,
  score,
  tokenF1,
} from "./fixtures/extraction_eval.ts";

Deno.test("the fixture set is broad: 30+ pages, five kinds, six languages beyond English", async () => {
  const fixtures = await loadFixtures();
  assert.ok(fixtures.length >= 30, `${fixtures.length} pages`);
  const kinds = new Set(fixtures.map((f) => f.gold.kind));
  for (const k of ["news", "blog", "docs", "wiki", "recipe"]) assert.ok(kinds.has(k), k);
  const langs = new Set(fixtures.map((f) => f.gold.lang));
  for (const l of ["de", "fr", "es", "ja", "ar"]) assert.ok(langs.has(l), l);
  for (const f of fixtures) assert.ok(f.gold.body.length > 300, `${f.name} has a real body`);
});

Deno.test("Folio extracts title, author and date at least as well as Readability, and bodies above 0.9 F1", async () => {
  const fixtures = await loadFixtures();
  const folio = score(fixtures, folioReading);
  const reference = score(fixtures, readabilityReading);
  for (const field of ["title", "author", "date"] as const) {
    assert.ok(
      folio[field] >= reference[field],
      `${field}: Folio ${folio[field]} < Readability ${reference[field]}`,
    );
    assert.ok(folio[field] >= 0.9, `${field}: ${folio[field]}`);
  }
  assert.ok(folio.bodyF1Mean >= reference.bodyF1Mean, `${folio.bodyF1Mean}`);
  assert.ok(folio.bodyF1Mean >= 0.95, `body F1 mean ${folio.bodyF1Mean}`);
  const worst = folio.pages.filter((p) => p.bodyF1 < 0.85).map((p) => `${p.name} ${p.bodyF1}`);
  assert.deepEqual(worst, []);
});

Deno.test("no section is lost, and title and byline are right wherever Readability's are", async () => {
  const fixtures = await loadFixtures();
  const folio = score(fixtures, folioReading);
  const reference = score(fixtures, readabilityReading);
  assert.deepEqual(folio.pages.filter((p) => p.sectionsLost > 0).map((p) => p.name), []);
  for (const field of ["title", "author"] as const) {
    const worse = folio.pages.filter((p, i) => reference.pages[i][field] && !p[field]);
    assert.deepEqual(worse.map((p) => `${p.name}: ${p.got[field]}`), [], field);
  }
});

Deno.test("lostSections() counts the gold sections a body keeps under half of", () => {
  const gold =
    "Lead words here.\n\n## Shared memory\n\nRing of slots in a file.\n\n## Related work\n\nDisruptor paper.";
  assert.deepEqual(lostSections(gold, gold), { sections: 3, lost: 0 });
  assert.deepEqual(
    lostSections("Lead words here.\n\n## Related work\n\nDisruptor paper.", gold),
    { sections: 3, lost: 1 },
  );
});

Deno.test("tokenF1() scores overlap of words, Japanese included", () => {
  assert.equal(tokenF1("a b c", "a b c"), 1);
  assert.equal(tokenF1("x y", "a b"), 0);
  assert.ok(Math.abs(tokenF1("a b", "a b c d") - 2 / 3) < 1e-9);
  assert.ok(tokenF1("東京都は給食費を無償化する", "東京都は給食費を無償化する方針") > 0.8);
  assert.ok(tokenF1("東京都は給食費を無償化する", "大阪の天気") < 0.3);
});
