/**
 * One Folio process per core: with FOLIO_REUSE_PORT=1 several processes on one store listen on the
 * same PORT (SO_REUSEPORT; the kernel spreads connections), and each answers on its own. Without
 * it, a second process on a taken port stops with a sentence naming the port.
 */
import assert from "node:assert/strict";
import { spawnFolio } from "./processes.ts";

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function health(port: number): Promise<number> {
  // A new connection each time, so the kernel picks a listener afresh.
  const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`, { client });
    await res.body?.cancel();
    return res.status;
  } finally {
    client.close();
  }
}

Deno.test("processes with FOLIO_REUSE_PORT share one port, and the survivor answers alone", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "folio-reuse-" });
  try {
    const port = freePort();
    const env = { PORT: String(port), FOLIO_REUSE_PORT: "1" };
    const first = await spawnFolio(dataDir, { env });
    await using second = await spawnFolio(dataDir, { env: { ...env, FOLIO_SEED: "0" } });
    assert.equal(first.port, String(port));
    assert.equal(second.port, String(port));
    for (let i = 0; i < 10; i++) assert.equal(await health(port), 200);
    await first[Symbol.asyncDispose]();
    for (let i = 0; i < 10; i++) assert.equal(await health(port), 200);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("without FOLIO_REUSE_PORT a second process on a taken port stops and says why", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "folio-reuse-" });
  try {
    const port = freePort();
    await using _first = await spawnFolio(dataDir, { env: { PORT: String(port) } });
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        `--lock=${new URL("../deno.lock", import.meta.url).pathname}`,
        "-A",
        new URL("../main.ts", import.meta.url).pathname,
      ],
      env: { NO_COLOR: "1", FOLIO_HOST: "127.0.0.1", PORT: String(port), FOLIO_DATA_DIR: dataDir },
      stdout: "piped",
      stderr: "piped",
    });
    const out = await child.output();
    assert.equal(out.success, false);
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.match(text, new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use`));
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
