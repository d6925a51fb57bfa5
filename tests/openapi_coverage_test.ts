import assert from "node:assert/strict";
import { manageRoutes } from "../server/manage/mod.ts";
import { json, startTestFolio } from "./helpers.ts";

Deno.test("the OpenAPI document describes every management route, and no route that does not exist", async () => {
  await using folio = await startTestFolio();
  const doc = await json<{ paths: Record<string, Record<string, unknown>> }>(
    await folio.request("/api/openapi.json"),
  );
  const documented = new Set(
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`)
    ),
  );
  const served = new Set(
    manageRoutes(folio.deps).routes
      .filter((r) => r.method !== "ALL")
      .map((r) => `${r.method} ${r.path}`),
  );
  assert.deepEqual([...served].filter((r) => !documented.has(r)).sort(), []);
  assert.deepEqual([...documented].filter((r) => !served.has(r)).sort(), []);
});
