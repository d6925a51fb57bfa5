import assert from "node:assert/strict";
import { createApp } from "../server/app.ts";
import { json, testFolio } from "./helpers.ts";

Deno.test("the OpenAPI document describes every management route, and no route that does not exist", async () => {
  await using folio = await testFolio();
  const doc = await json<{ paths: Record<string, Record<string, unknown>> }>(
    await folio.request("/api/openapi.json"),
  );
  const documented = new Set(
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`)
    ),
  );
  // The management API: everything under /api/publisher, accounts, and this document itself.
  const management = (path: string) =>
    path.startsWith("/api/publisher/") || /^\/api\/publishers\/(signup|login|logout)$/.test(path) ||
    path === "/api/openapi.json";
  const served = new Set(
    createApp(folio.deps).routes
      .filter((r) => r.method !== "ALL" && management(r.path))
      .map((r) => `${r.method} ${r.path}`),
  );
  assert.deepEqual([...served].filter((r) => !documented.has(r)).sort(), []);
  assert.deepEqual([...documented].filter((r) => !served.has(r)).sort(), []);
});
