import assert from "node:assert/strict";
import { mallocTrim, memoryReleaser } from "./memory.ts";

Deno.test("memoryReleaser() signals only where Deno's SIGUSR2 handler is on, else trims through FFI", () => {
  const linux = Deno.build.os === "linux";
  assert.equal(memoryReleaser({ DENO_USR2_MEMORY_TRIM: "1" }).kind, linux ? "signal" : null);
  // Any other value leaves SIGUSR2 unhandled: sending it would end the process.
  for (const env of [{}, { DENO_USR2_MEMORY_TRIM: "0" }, { DENO_USR2_MEMORY_TRIM: "yes" }]) {
    const { kind } = memoryReleaser(env);
    assert.notEqual(kind, "signal");
    if (linux) assert.equal(kind, "malloc_trim");
  }
  if (linux) mallocTrim()!(); // glibc's malloc_trim(0): safe at any time
});

Deno.test("with DENO_USR2_MEMORY_TRIM=1 a release collects the heap and the process carries on", async () => {
  if (Deno.build.os !== "linux") return;
  const memory = new URL("./memory.ts", import.meta.url).href;
  const script = `
    import { memoryReleaser } from "${memory}";
    let junk = [];
    for (let i = 0; i < 300000; i++) junk.push({ i, s: "x" + i });
    junk = null;
    const before = Deno.memoryUsage().heapUsed;
    const { kind, release } = memoryReleaser();
    release();
    await new Promise((r) => setTimeout(r, 300));
    console.log(JSON.stringify({ kind, before, after: Deno.memoryUsage().heapUsed }));
    // The trim it scheduled is unref'd: the process ends here, before it.
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    env: { DENO_USR2_MEMORY_TRIM: "1" },
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const { kind, before, after } = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.equal(kind, "signal");
  // The 300,000 objects were garbage: the full collection took them.
  assert.ok(after < before / 2, `${before} → ${after}`);
});
