import assert from "node:assert/strict";
import { compileDotScan } from "../scripts/build_wasm.ts";
import { DotScanner } from "./dot_scan.ts";
import { DOT_SCAN_WASM } from "./dot_scan_wasm.ts";

Deno.test("the committed WebAssembly is what search/dot_scan.wat compiles to", async () => {
  const committed = Uint8Array.from(atob(DOT_SCAN_WASM), (c) => c.charCodeAt(0));
  assert.deepEqual(committed, await compileDotScan());
});

function randomRows(seed: number) {
  return () => (seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5;
}

/** Unit rows as an index holds them, with the shapes that stretch an int8 scale. */
function unitRow(dims: number, r: number, random: () => number): Float32Array {
  if (r % 53 === 0) return new Float32Array(dims); // a removed article's zeros
  const row = Float32Array.from({ length: dims }, random);
  if (r % 7 === 0) row[r % dims] = 8; // one dominant component: a coarse scale for the rest
  const norm = Math.hypot(...row);
  return row.map((x) => x / norm);
}

Deno.test("DotScanner finds the same k best rows with the same scores as a float scan of every row, across growth", () => {
  for (const dims of [12, 128]) {
    const scanner = new DotScanner(dims);
    const random = randomRows(7);
    const rows: Float32Array[] = [];
    for (const count of [3, 70, 5000]) {
      scanner.reserve(count);
      // Rows written before the memory grew are still there; new ones go after them.
      for (let r = rows.length; r < count; r++) {
        const row = r % 101 === 5 ? rows[r - 1] : unitRow(dims, r, random); // some duplicates
        rows.push(row);
        scanner.rows.set(row, r * dims);
        scanner.quantize(r);
      }
      for (let t = 0; t < 5; t++) {
        const query = unitRow(dims, 1 + t, random);
        const every = Array.from(scanner.dots(query, rows.map((_, r) => r)));
        rows.forEach((row, r) => {
          let dot = 0;
          for (let j = 0; j < dims; j++) dot += row[j] * query[j];
          assert.ok(Math.abs(every[r] - dot) < 1e-5, `row ${r}: ${every[r]} vs ${dot}`);
        });
        for (const k of [1, 10, 2000]) {
          const { slots, scores } = scanner.nearest(query, count, k);
          const got = new Map(Array.from(slots, (s, i) => [s, scores[i]]));
          assert.deepEqual([...got.keys()], [...got.keys()].toSorted((a, b) => a - b));
          for (const [s, score] of got) assert.equal(score, every[s], `row ${s}: not exact`);
          const kth = every.toSorted((a, b) => b - a)[Math.min(k, count) - 1];
          every.forEach((score, s) => {
            if (score >= kth) assert.ok(got.has(s), `${dims}/${count}/${k}: row ${s} missed`);
          });
          const { pool } = scanner.nearest(query, count, k, 300);
          const ranked = every.map((score, s) => ({ score, s })).toSorted((a, b) =>
            b.score - a.score
          );
          assert.ok(pool.length >= Math.min(300, count), `pool of ${pool.length}`);
          assert.deepEqual([...pool], [...pool].toSorted((a, b) => a - b));
          for (const { s } of ranked.slice(0, 10)) {
            assert.ok(pool.includes(s), `row ${s} not pooled`);
          }
          if (count === 5000 && k <= 10) {
            assert.ok(got.size < 500, `${dims}/${k}: ${got.size} rows scored exactly`);
          }
        }
      }
    }
  }
  assert.throws(() => new DotScanner(6), RangeError);
});

Deno.test("DotScanner's rows stay exact after a row is rewritten or zeroed", () => {
  const dims = 16;
  const scanner = new DotScanner(dims);
  const random = randomRows(3);
  scanner.reserve(300);
  for (let r = 0; r < 300; r++) {
    scanner.rows.set(unitRow(dims, r + 1, random), r * dims);
    scanner.quantize(r);
  }
  const query = unitRow(dims, 2, random);
  const best = scanner.nearest(query, 300, 1);
  const top = best.slots[Array.from(best.scores).indexOf(Math.max(...best.scores))];
  scanner.rows.fill(0, top * dims, (top + 1) * dims);
  scanner.quantize(top);
  const after = scanner.nearest(query, 300, 1);
  assert.ok(!Array.from(after.slots).includes(top) || after.scores.length > 1);
  scanner.rows.set(query, 299 * dims);
  scanner.quantize(299);
  const again = scanner.nearest(query, 300, 1);
  const i = Array.from(again.scores).indexOf(Math.max(...again.scores));
  assert.equal(again.slots[i], 299);
  assert.ok(Math.abs(again.scores[i] - 1) < 1e-5);
});
