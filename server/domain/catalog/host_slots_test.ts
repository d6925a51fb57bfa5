import assert from "node:assert/strict";
import { manualTimer } from "../../platform/clock.ts";
import { createHostSlots } from "./host_slots.ts";

const never = new AbortController().signal;

/** One macrotask turn: every promise continuation that could run has run. */
const settled = () => new Promise((r) => setTimeout(r, 0));

Deno.test("createHostSlots() spaces starts to one host by the interval, and not across hosts", async () => {
  const timer = manualTimer();
  const slots = createHostSlots({
    perHostConcurrency: 2,
    minHostIntervalMs: 150,
    maxConcurrent: 8,
    timer,
  });
  const started: Record<string, number[]> = { a: [], b: [] };
  const all = Promise.all(["a", "a", "a", "b"].map(async (host) => {
    const slot = await slots.enter(host, never);
    started[host].push(timer.now());
    slot.release();
  }));
  // a's second and third starts wait on the timer, each one interval after the last; b does not.
  await timer.sleeping(2);
  await settled();
  assert.deepEqual(timer.pending(), [150, 300]);
  assert.deepEqual(started, { a: [0], b: [0] });
  timer.advance(150);
  await settled();
  assert.deepEqual(started, { a: [0, 150], b: [0] });
  timer.advance(150);
  await all;
  assert.deepEqual(started, { a: [0, 150, 300], b: [0] });
  assert.deepEqual(timer.pending(), []);
});

Deno.test("createHostSlots() rounds a fractional wait up, so the spacing never falls short", async () => {
  const timer = manualTimer(0.25);
  const slots = createHostSlots({
    perHostConcurrency: 2,
    minHostIntervalMs: 100,
    maxConcurrent: 8,
    timer,
  });
  (await slots.enter("a", never)).release();
  timer.advance(0.5);
  const next = slots.enter("a", never);
  await timer.sleeping(1);
  // Due at 100.25, 99.5 ms away: a timer would round 99.5 down, so it sleeps 100.
  assert.deepEqual(timer.pending(), [100.75]);
  timer.advance(99.5);
  await settled();
  assert.deepEqual(timer.pending(), [100.75], "not yet at 100.25");
  timer.advance(0.5);
  (await next).release();
});

Deno.test("createHostSlots() holds the per-host concurrency until a slot is released", async () => {
  const slots = createHostSlots({ perHostConcurrency: 1, minHostIntervalMs: 0, maxConcurrent: 8 });
  const first = await slots.enter("a", never);
  let second = false;
  const waiting = slots.enter("a", never).then((s) => {
    second = true;
    return s;
  });
  await settled();
  assert.equal(second, false);
  first.release();
  (await waiting).release();
  assert.equal(second, true);
});
