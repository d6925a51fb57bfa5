/** Test utilities: a real Folio on 127.0.0.1 port 0 with a temporary store, and fixtures. */
import { type ManualClock, manualClock } from "../server/clock.ts";
import { type Config, loadConfig } from "../server/config.ts";
import { memoryLogger } from "../server/log.ts";
import { type Folio, startFolio } from "../server/runtime.ts";

/** A started test service that cleans up after itself with `await using`. */
export interface TestFolio extends Folio, AsyncDisposable {
  clock: ManualClock;
  dataDir: string;
  logLines: string[];
  /** fetch() against this service; `host` sets the Host header (e.g. "demo.localhost"). */
  request(path: string, init?: RequestInit & { host?: string }): Promise<Response>;
}

/** Starts Folio on a fresh temporary data dir. `env` overrides configuration variables. */
export async function startTestFolio(
  options: { env?: Record<string, string>; dataDir?: string; clock?: ManualClock } = {},
): Promise<TestFolio> {
  const dataDir = options.dataDir ?? await Deno.makeTempDir({ prefix: "folio-test-" });
  const config: Config = loadConfig({
    PORT: "0",
    FOLIO_HOST: "127.0.0.1",
    FOLIO_DATA_DIR: dataDir,
    FOLIO_LOG_LEVEL: "debug",
    ...options.env,
  });
  const clock = options.clock ?? manualClock();
  const log = memoryLogger();
  const folio = await startFolio(config, { clock, log });
  const port = Number(new URL(folio.url).port);
  // Deno's fetch sets Host from the URL, so named hosts go through a client that connects to
  // 127.0.0.1 while keeping the URL's host (as a browser resolving *.localhost would).
  let client: Deno.HttpClient | null = null;
  return {
    ...folio,
    clock,
    dataDir,
    logLines: log.lines,
    request(path, init = {}) {
      const { host, ...rest } = init;
      if (!host) return fetch(`http://127.0.0.1:${port}${path}`, rest);
      client ??= Deno.createHttpClient({
        proxy: { transport: "tcp", hostname: "127.0.0.1", port },
      });
      return fetch(`http://${host}:${port}${path}`, { ...rest, client });
    },
    async [Symbol.asyncDispose]() {
      client?.close();
      await folio.shutdown();
      if (!options.dataDir) await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

/** Reads a JSON body (always consuming it). */
export async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  return await res.json() as T;
}
