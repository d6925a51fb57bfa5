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
  const turn = eventLoopTurns(1_000);
  let macrotasks = 0;
  const timer = setInterval(() => macrotasks++, 0);
  try {
    for (let i = 0; i < 100; i++) await turn(); // well within the budget: no turn taken
    assert.equal(macrotasks, 0);
  } finally {
    clearInterval(timer);
  }
});
