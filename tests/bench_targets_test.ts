/**
 * The benches' target helpers (scripts/targets.ts): a figure is met only when it reaches its
 * target, a value that is not a number never is, and the tally names every figure not met.
 */
import assert from "node:assert/strict";
import {
  atLeast,
  atMost,
  check,
  exactly,
  line,
  tally,
  TARGETS,
  verdict,
} from "../scripts/targets.ts";

Deno.test("targets: at least, at most and exactly, at and either side of the bound", () => {
  const floor = atLeast(200, " articles/s");
  assert.deepEqual([199.9, 200, 201].map(floor.ok), [false, true, true]);
  assert.equal(floor.target, "≥ 200 articles/s");
  const ceiling = atMost(1.1, "× idle");
  assert.deepEqual([1.09, 1.1, 1.11].map(ceiling.ok), [true, true, false]);
  const none = exactly(0, " duplicates");
  assert.deepEqual([-1, 0, 1].map(none.ok), [false, true, false]);
  assert.equal(none.target, "= 0 duplicates");
});

Deno.test("targets: check() never meets a figure that is not a number (a phase that failed)", () => {
  for (const v of [NaN, Infinity, -Infinity]) {
    assert.equal(check("p95", v, atMost(25, " ms")).met, false);
  }
  assert.equal(check("p95", 24, atMost(25, " ms")).met, true);
  // verdict() keeps its shape for the JSON lines other benches spread.
  assert.deepEqual(verdict(TARGETS.ingestion, 210), { target: "≥ 200 articles/s", met: true });
});

Deno.test("targets: line() says met or NOT met beside the target, with the shown value", () => {
  const c = check("payoutsDue", 3.58, TARGETS.payoutsDue);
  assert.equal(line(c), "payoutsDue: 3.58 (target ≤ 5× the month close's payout sum): met");
  const d = check("drain seconds", 30, atMost(11.1, " s"));
  assert.equal(line(d, "30 s"), "drain seconds: 30 s (target ≤ 11.1 s): NOT met");
});

Deno.test("targets: tally() counts the figures met and names each one missed", () => {
  const met = check("a", 1, exactly(1, ""));
  const missed = check("rate", 96, atLeast(200, "/s"));
  assert.equal(tally([met]), "targets met: 1 of 1");
  assert.equal(tally([met, missed]), "targets met: 1 of 2; NOT met: rate 96 (≥ 200/s)");
  assert.equal(tally([]), "targets met: 0 of 0");
});
