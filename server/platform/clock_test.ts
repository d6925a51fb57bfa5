import assert from "node:assert/strict";
import { manualTimer, monthOf, systemTimer } from "./clock.ts";

Deno.test("manualTimer() ends sleeps only as it is advanced past them, earliest first", async () => {
  const timer = manualTimer(10);
  const woke: string[] = [];
  const a = timer.sleep(50).then(() => woke.push(`a@${timer.now()}`));
  const b = timer.sleep(20).then(() => woke.push(`b@${timer.now()}`));
  await timer.sleeping(2);
  assert.deepEqual(timer.pending(), [30, 60]);
  timer.advance(19);
  await Promise.resolve();
  assert.deepEqual(woke, [], "nothing is due at 29");
  timer.advance(40);
  await Promise.all([a, b]);
  assert.deepEqual(woke, ["b@69", "a@69"]);
  assert.deepEqual(timer.pending(), []);
});

Deno.test("a sleep on either timer rejects with the signal's reason and leaves nothing pending", async () => {
  const timer = manualTimer();
  const ctl = new AbortController();
  const sleeping = timer.sleep(100, ctl.signal);
  ctl.abort(new Error("woken"));
  await assert.rejects(sleeping, /woken/);
  assert.deepEqual(timer.pending(), []);
  await assert.rejects(timer.sleep(1, ctl.signal), /woken/, "an aborted signal never sleeps");
  const real = new AbortController();
  const long = systemTimer.sleep(60_000, real.signal);
  real.abort(new Error("stop"));
  await assert.rejects(long, /stop/); // the 60 s timer was cleared, or this test would leak it
});

Deno.test("monthOf() is the ISO string's UTC month, at month and year edges too", () => {
  for (
    const at of [
      "2026-12-31T23:59:59.999Z",
      "2027-01-01T00:00:00Z",
      "2026-09-30T23:59:59Z",
      "2026-10-01T00:00:00+02:00",
      "0999-03-04T00:00:00Z",
      "1970-01-01T00:00:00Z",
    ]
  ) {
    const d = new Date(at);
    assert.equal(monthOf(d), d.toISOString().slice(0, 7), at);
  }
  assert.throws(() => monthOf(new Date(NaN)), RangeError);
});
