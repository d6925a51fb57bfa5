import assert from "node:assert/strict";
import { eventLoopTurns } from "./turns.ts";

/** Busy work for `ms` milliseconds, as a synchronous store call is. */
function busy(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* the driver's synchronous call */ }
}

Deno.test("eventLoopTurns() lets a timer run inside a loop of awaited synchronous work", async () => {
  let fired = 0;
  const timer = setInterval(() => fired++, 1);
  try {
    // Awaiting resolved promises alone: the loop keeps the thread for all 60 ms.
    for (let i = 0; i < 30; i++) {
      busy(2);
      await Promise.resolve();
    }
    assert.equal(fired, 0);
    const turn = eventLoopTurns(10);
    for (let i = 0; i < 30; i++) {
      busy(2);
      await turn();
    }
    assert.ok(fired >= 3, `${fired} timer runs`);
  } finally {
    clearInterval(timer);
  }
});

Deno.test("eventLoopTurns() takes a turn only once its budget has passed", async () => {
  let t = 0; // the work's own time, so a slow machine cannot spend the budget behind its back
  const turn = eventLoopTurns(1_000, () => t);
  let macrotasks = 0;
  const timer = setInterval(() => macrotasks++, 0);
  try {
    for (let i = 0; i < 100; i++, t += 9) await turn(); // 891 ms of work: no turn taken
    assert.equal(macrotasks, 0);
    t = 1_000;
    await turn(); // the budget is spent: the timer that was waiting runs
    assert.ok(macrotasks > 0);
  } finally {
    clearInterval(timer);
  }
});
