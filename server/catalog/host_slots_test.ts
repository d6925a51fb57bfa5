import assert from "node:assert/strict";
import { createHostSlots } from "./host_slots.ts";

const never = new AbortController().signal;

Deno.test("createHostSlots() spaces starts to one host by the interval, and not across hosts", async () => {
  const slots = createHostSlots({
    perHostConcurrency: 2,
    minHostIntervalMs: 150,
    maxConcurrent: 8,
  });
  const started: Record<string, number[]> = { a: [], b: [] };
  const t0 = performance.now();
  await Promise.all(["a", "a", "a", "b"].map(async (host) => {
    const slot = await slots.enter(host, never);
    started[host].push(performance.now() - t0);
    slot.release();
  }));
  // Sleeps never end early, so these are lower bounds, not timings.
  assert.ok(started.a[1] >= 150 && started.a[2] >= 300, JSON.stringify(started));
  assert.ok(started.b[0] < started.a[1], "another host does not wait behind a's spacing");
});

Deno.test("createHostSlots() holds the per-host concurrency until a slot is released", async () => {
  const slots = createHostSlots({ perHostConcurrency: 1, minHostIntervalMs: 0, maxConcurrent: 8 });
  const first = await slots.enter("a", never);
  let second = false;
  const waiting = slots.enter("a", never).then((s) => {
    second = true;
    return s;
  });
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(second, false);
  first.release();
  (await waiting).release();
  assert.equal(second, true);
});
