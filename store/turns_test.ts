import assert from "node:assert/strict";
import { setImmediate } from "node:timers";
import { eventLoopTurns, sharedTurn, turnBegun } from "./turns.ts";

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

Deno.test("work that has not spent its budget joins a turn another has begun", async () => {
  const turn = eventLoopTurns(1_000, () => 0); // its budget never passes
  const round = sharedTurn();
  assert.equal(turnBegun(), true);
  await turn();
  assert.equal(turnBegun(), false, "it waited for the round to end");
  await round;
});

/**
 * Two loops of synchronous work hopping through setImmediate (as a write does) while a client
 * asks this thread's server for a page: counted in rounds of work, not in milliseconds. With each
 * loop taking its own timer turn, one was always ready to run, Deno's runtime read sockets only
 * every 61st task and the answer took hundreds of rounds (docs/decisions/storage.md).
 */
Deno.test("a request is answered within a few turns while two loops of work run", async () => {
  await using server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    () => new Response("ok"),
  );
  let rounds = 0;
  let answered = false;
  const loop = async (budgetMs: number) => {
    const turn = eventLoopTurns(budgetMs);
    while (!answered) {
      busy(1);
      rounds++;
      await new Promise((resolve) => setImmediate(resolve));
      await turn();
    }
  };
  const loops = [loop(10), loop(13)]; // out of step, as a book's import and its indexing are
  const at = rounds;
  const res = await fetch(`http://127.0.0.1:${server.addr.port}/`);
  await res.text();
  const took = rounds - at;
  answered = true;
  await Promise.all(loops);
  // A round is 1 ms of work and each loop takes a turn every 10 or 13 ms: a few turns suffice.
  assert.ok(took < 100, `answered after ${took} rounds of work`);
});
