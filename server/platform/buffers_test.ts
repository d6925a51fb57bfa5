import assert from "node:assert/strict";
import { releaseChunk } from "./buffers.ts";

Deno.test("releaseChunk() frees a chunk that is its whole buffer, and leaves views alone", () => {
  const whole = new Uint8Array(1024).fill(7);
  releaseChunk(whole);
  assert.equal(whole.byteLength, 0);
  assert.equal(whole.buffer.detached, true);

  const shared = new Uint8Array(1024).fill(7);
  const view = shared.subarray(0, 512);
  releaseChunk(view);
  assert.equal(view.byteLength, 512);
  assert.equal(shared[1000], 7);

  releaseChunk(whole); // twice is harmless
  releaseChunk(new Uint8Array(0));
  const grows = new Uint8Array(new ArrayBuffer(8, { maxByteLength: 64 }));
  releaseChunk(grows);
  assert.equal(grows.byteLength, 8);
});
