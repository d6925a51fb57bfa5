/** Folio in a child process: a second process on a test's store, or a bench's measured server. */
import { SERVE_V8_FLAGS } from "../server/platform/memory.ts";
import type { Requester } from "./billing_helpers.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** A running `main.ts`: its process, its port and the banner it printed on start. */
export interface SpawnedFolio extends AsyncDisposable {
  child: Deno.ChildProcess;
  port: string;
  banner: string;
}

/**
 * `main.ts` on `dataDir` (port 0, loopback), once its banner names the port and matches every
 * pattern in `until`; its stdout is drained afterwards so it never blocks on a full pipe.
 */
export async function spawnFolio(
  dataDir: string,
  options: {
    env?: Record<string, string>;
    denoArgs?: string[];
    stderr?: "inherit" | "null";
    until?: RegExp[];
  } = {},
): Promise<SpawnedFolio> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      `--lock=${new URL("../deno.lock", import.meta.url).pathname}`,
      "-A",
      // V8's heap policy as `task start` sets it, unless the caller names its own.
      ...(options.denoArgs?.some((a) => a.startsWith("--v8-flags"))
        ? []
        : [`--v8-flags=${SERVE_V8_FLAGS}`]),
      ...(options.denoArgs ?? []),
      MAIN,
    ],
    env: {
      NO_COLOR: "1",
      FOLIO_HOST: "127.0.0.1",
      PORT: "0",
      FOLIO_DATA_DIR: dataDir,
      // As testFolio(): tests count the demo's calls and charges from zero.
      FOLIO_SEED_HISTORY: "0",
      ...options.env,
    },
    stdout: "piped",
    stderr: options.stderr ?? "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const serving = /serving on http:\/\/[^:]+:(\d+)/;
  let banner = "";
  while (![serving, ...options.until ?? []].every((re) => re.test(banner))) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`folio stopped: ${banner}`);
    banner += value;
  }
  const drain = (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })().catch(() => {});
  return {
    child,
    port: serving.exec(banner)![1],
    banner,
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.status;
      await drain;
    },
  };
}

/** A second Folio process on `dataDir`, reached through `request` like a test Folio. */
export async function secondProcess(
  dataDir: string,
): Promise<Requester & AsyncDisposable & { port: string }> {
  const folio = await spawnFolio(dataDir, { env: { FOLIO_SEED: "0" } });
  const { port } = folio;
  const client = Deno.createHttpClient({
    proxy: { transport: "tcp", hostname: "127.0.0.1", port: Number(port) },
  });
  return {
    port,
    request: (path, init = {}) => {
      const { host, ...rest } = init;
      return fetch(`http://${host ?? "localhost"}:${port}${path}`, { ...rest, client });
    },
    async [Symbol.asyncDispose]() {
      client.close();
      await folio[Symbol.asyncDispose]();
    },
  };
}
