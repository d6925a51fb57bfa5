/**
 * Migration 0023: domains claimed before proof was asked for stop routing and wait as pending
 * claims; trusted names (the demo's demo.localhost) are verified again as the service starts.
 */
import assert from "node:assert/strict";
import { testFolio } from "./helpers.ts";
import { signUp } from "./manage_helpers.ts";

Deno.test("a store from before 0023 keeps demo.localhost and turns other domains into pending claims", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "folio-domains-" });
  try {
    {
      await using folio = await testFolio({ dataDir });
      const { publisherId } = await signUp(folio, { slug: "squat" });
      // The store as 0022 left it: the first claimant of a domain simply held it.
      await folio.store.db.batch([
        {
          sql: "UPDATE publishers SET custom_domain = 'www.bbc.org' WHERE id = ?",
          args: [publisherId],
        },
        "DROP TABLE domain_claims",
        "DELETE FROM schema_migrations WHERE version = 23",
      ], "write");
    }
    await using folio = await testFolio({ dataDir });
    const rows = await folio.store.db.execute(
      "SELECT p.slug, c.domain, c.state, c.method, p.custom_domain FROM domain_claims c " +
        "JOIN publishers p ON p.id = c.publisher_id ORDER BY p.slug",
    );
    assert.deepEqual(rows.rows.map((r) => [r.slug, r.domain, r.state, r.method, r.custom_domain]), [
      ["demo", "demo.localhost", "verified", "trusted", "demo.localhost"],
      ["squat", "www.bbc.org", "pending", null, null],
    ]);
    const bbc = await folio.request("/api/v1/articles/search?q=solar", { host: "www.bbc.org" });
    assert.equal(bbc.status, 404);
    await bbc.body?.cancel();
    const demo = await folio.request("/api/v1/articles/search?q=solar", { host: "demo.localhost" });
    assert.equal(demo.status, 200);
    await demo.body?.cancel();
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
