import assert from "node:assert/strict";
import { loadConfig } from "./config.ts";
import { FULL_COLLECTION_MAX_HEAP, mallocTrim, memoryReleaser } from "./memory.ts";

Deno.test("memoryReleaser() signals only where Deno's SIGUSR2 handler is on, else trims through FFI", () => {
  const linux = Deno.build.os === "linux";
  assert.equal(memoryReleaser({ usr2MemoryTrim: true }).kind, linux ? "signal" : null);
  // Without it SIGUSR2 is unhandled: sending it would end the process.
  for (const usr2MemoryTrim of [undefined, false]) {
    const { kind } = memoryReleaser({ usr2MemoryTrim });
    assert.notEqual(kind, "signal");
    if (linux) assert.equal(kind, "malloc_trim");
  }
  // Only "1" turns it on, as Deno reads it.
  for (const value of ["1", "0", "yes"]) {
    const { usr2MemoryTrim } = loadConfig({ DENO_USR2_MEMORY_TRIM: value });
    assert.equal(usr2MemoryTrim, value === "1");
  }
  if (linux) mallocTrim()!(); // glibc's malloc_trim(0): safe at any time
});

Deno.test("above FULL_COLLECTION_MAX_HEAP a release only trims, however SIGUSR2 is set up", () => {
  if (Deno.build.os !== "linux") return;
  const big = () => FULL_COLLECTION_MAX_HEAP + 1;
  // This test process has no SIGUSR2 handler: had the release signalled, it would have ended here.
  const on = { usr2MemoryTrim: true };
  assert.equal(memoryReleaser({ ...on, heapUsed: big, signalAfterMs: 0 }).release(), "trimmed");
  // So does a release in the first seconds, before Deno has installed its SIGUSR2 handler.
  const early = memoryReleaser({
    ...on,
    heapUsed: () => 0,
    signalAfterMs: performance.now() + 60_000,
  });
  assert.equal(early.release(), "trimmed");
});

Deno.test("with DENO_USR2_MEMORY_TRIM=1 a release collects the heap and the process carries on", async () => {
  if (Deno.build.os !== "linux") return;
  const memory = new URL("./memory.ts", import.meta.url).href;
  const script = `
    import { memoryReleaser } from "${memory}";
    await new Promise((r) => setTimeout(r, 500)); // Deno's SIGUSR2 handler is installed by now
    let junk = [];
    for (let i = 0; i < 300000; i++) junk.push({ i, s: "x" + i });
    junk = null;
    const before = Deno.memoryUsage().heapUsed;
    const { kind, release } = memoryReleaser({ signalAfterMs: 0, usr2MemoryTrim: true });
    const done = release();
    // The collection runs when the signal is handled: wait for it (a slow machine takes longer).
    const giveUp = performance.now() + 30_000;
    while (Deno.memoryUsage().heapUsed >= before / 2 && performance.now() < giveUp) {
      await new Promise((r) => setTimeout(r, 20));
    }
    console.log(JSON.stringify({ kind, done, before, after: Deno.memoryUsage().heapUsed }));
    // The trim it scheduled is unref'd: the process ends here, before it.
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    env: { DENO_USR2_MEMORY_TRIM: "1" },
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const { kind, done, before, after } = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.equal(kind, "signal");
  assert.equal(done, "collected");
  // The 300,000 objects were garbage: the full collection took them.
  assert.ok(after < before / 2, `${before} → ${after}`);
});
