import assert from "node:assert/strict";
import { compileDotScan } from "../scripts/build_wasm.ts";
import { DotScanner } from "./dot_scan.ts";
import { DOT_SCAN_WASM } from "./dot_scan_wasm.ts";

Deno.test("the committed WebAssembly is what search/dot_scan.wat compiles to", async () => {
  const committed = Uint8Array.from(atob(DOT_SCAN_WASM), (c) => c.charCodeAt(0));
  assert.deepEqual(committed, await compileDotScan());
});

Deno.test("DotScanner scores every row as a plain dot product would, across growth", () => {
  const dims = 12;
  const scanner = new DotScanner(dims);
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5;
  const rows: Float32Array[] = [];
  for (const count of [3, 70, 5000]) {
    scanner.reserve(count);
    // Rows written before the memory grew are still there; new ones go after them.
    for (let r = rows.length; r < count; r++) {
      const row = Float32Array.from({ length: dims }, random);
      rows.push(row);
      scanner.rows.set(row, r * dims);
    }
    const query = Float32Array.from({ length: dims }, random);
    const scores = scanner.scores(query, count);
    assert.equal(scores.length, count);
    rows.forEach((row, r) => {
      let dot = 0;
      for (let j = 0; j < dims; j++) dot += row[j] * query[j];
      assert.ok(Math.abs(scores[r] - dot) < 1e-5, `row ${r}: ${scores[r]} vs ${dot}`);
    });
  }
  assert.throws(() => new DotScanner(6), RangeError);
});
