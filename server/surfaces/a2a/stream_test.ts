import assert from "node:assert/strict";
import { sseBody, withErrorEvent } from "./stream.ts";

async function* failingAfterOne(): AsyncGenerator<Record<string, unknown>> {
  yield { jsonrpc: "2.0", id: 9, result: { n: 1 } };
  yield { jsonrpc: "2.0", id: 9, result: { n: 2 } };
  throw new Error("store went away");
}

Deno.test("an error after the stream started is its last event, a JSON-RPC error with the call's id", async () => {
  const events = failingAfterOne();
  const first = await events.next();
  const out = withErrorEvent(first, events, 9, () => ({ code: -32603, message: "Internal error" }));
  const text = await new Response(sseBody(out, "stop")).text();
  assert.deepEqual(text.split("\n\n").filter(Boolean), [
    'data: {"jsonrpc":"2.0","id":9,"result":{"n":1}}',
    'data: {"jsonrpc":"2.0","id":9,"result":{"n":2}}',
    'data: {"jsonrpc":"2.0","id":9,"error":{"code":-32603,"message":"Internal error"}}',
  ]);
});

Deno.test("a client leaving a subscription ends its source", async () => {
  let ended = false;
  async function* endless(): AsyncGenerator<Record<string, unknown>> {
    try {
      for (let n = 0;; n++) yield { n };
    } finally {
      ended = true;
    }
  }
  const reader = sseBody(endless(), "stop").getReader();
  await reader.read();
  await reader.cancel();
  assert.equal(ended, true);
});

Deno.test("a client leaving a send's stream does not stop the run: its events still pass", async () => {
  const passed: number[] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  async function* run(): AsyncGenerator<Record<string, unknown>> {
    for (let n = 1; n <= 4; n++) {
      if (n === 3) await held;
      passed.push(n);
      yield { n };
    }
  }
  const reader = sseBody(run(), "drain").getReader();
  await reader.read();
  const gone = reader.cancel();
  release();
  await gone;
  assert.deepEqual(passed, [1, 2, 3, 4]);
});
