/**
 * Test utilities. Two ways to run Folio, both on a fresh temporary store:
 * - `testFolio()`: the app in process (Fresh's style): `request()` calls the app's handler with a
 *   `Request`, no socket. For tests that need neither a network peer nor a real client.
 * - `startTestFolio()`: the real server on 127.0.0.1 port 0, for real clients (the MCP and A2A
 *   SDKs, an OAuth library, a browser) and whatever crosses the network.
 * Both start from a copy of one seeded store per test process (migrated, the demo publisher
 * seeded and embedded), which is what makes a test cheap; `dataDir` or FOLIO_SEED=0 opt out.
 * Both check every answer of a documented operation against the OpenAPI document
 * (tests/fixtures/documented.ts); `checkDocumented: false` opts a request or a service out.
 */
import { type ManualClock, manualClock } from "../server/platform/clock.ts";
import { type Config, loadConfig } from "../server/platform/config.ts";
import { memoryLogger } from "../server/platform/log.ts";
import { assembleFolio, type Folio, startFolio } from "../server/runtime.ts";
import type { SeedResult } from "../server/seed/demo.ts";
import { type Client, fileUrl, openStore } from "../store/db.ts";
import { runProbeRound } from "../server/domain/status/probes.ts";
import { checkDocumented } from "./fixtures/documented.ts";

/** A test service that cleans up after itself with `await using`. */
export interface TestFolio extends Folio, AsyncDisposable {
  clock: ManualClock;
  dataDir: string;
  logLines: string[];
  /**
   * A request to this service; `host` sets the Host (e.g. "demo.localhost"); `from` the client
   * address it comes from (in process only; 127.0.0.1 unless given); `checkDocumented: false`
   * leaves the answer unchecked against the OpenAPI document (e.g. a deliberate 500).
   */
  request(path: string, init?: RequestInit & RequestOptions): Promise<Response>;
}

/** What `TestFolio.request()` takes beyond `RequestInit`. */
export interface RequestOptions {
  host?: string;
  from?: string;
  checkDocumented?: boolean;
}

/** Options of both test services. */
export interface TestOptions {
  /** Configuration variables, over the test defaults. */
  env?: Record<string, string>;
  /** A data directory to use as it is (no template copy), e.g. to restart on the same store. */
  dataDir?: string;
  clock?: ManualClock;
  /** Check answers against the OpenAPI document (default true; a request may opt out). */
  checkDocumented?: boolean;
  /** startTestFolio: write the demo's history after listening, as `task start` does. */
  historyAfterListening?: boolean;
}

/** The clock every test starts at unless it brings its own. */
const START = "2026-11-15T12:00:00Z";

/** Folio in process: the app's handler called with Request objects, no socket. */
export async function testFolio(options: TestOptions = {}): Promise<TestFolio> {
  const { config, clock, dataDir, seeded, owned } = await prepare(options, { port: "8080" });
  const log = memoryLogger();
  const folio = await assembleFolio(config, { clock, log });
  const handler = folio.handler(config);
  const peer = { remoteAddr: { transport: "tcp", hostname: "127.0.0.1", port: 40000 } };
  const shutdown = () => folio.close();
  const deps = folio.deps;
  return {
    // The probe's requests go to the handler as they would reach the listener.
    probe: () =>
      runProbeRound(
        { db: deps.store.db, clock: deps.clock, config: deps.config },
        (url, init) =>
          Promise.resolve(
            handler(
              new Request(url.replace(/^https:/, "http:"), init),
              peer as Deno.ServeHandlerInfo<Deno.NetAddr>,
            ),
          ),
      ),
    config: folio.deps.config,
    deps: folio.deps,
    store: folio.store,
    seeded: folio.seeded ?? seeded,
    history: Promise.resolve(folio.seeded?.history ?? null),
    url: config.baseUrl,
    shutdown,
    clock,
    dataDir,
    logLines: log.lines,
    request: documented(options, async (path, init = {}) => {
      const { host = "127.0.0.1", from, checkDocumented: _, ...rest } = init;
      // As Deno.serve would hand it over on the configured port, with the Host the client sent.
      const authority = `${host}:${config.port}`;
      const headers = new Headers(rest.headers);
      headers.set("host", authority);
      const req = new Request(`http://${authority}${path}`, { ...rest, headers });
      const info = from ? { remoteAddr: { ...peer.remoteAddr, hostname: from } } : peer;
      return await handler(req, info as Deno.ServeHandlerInfo<Deno.NetAddr>);
    }),
    async [Symbol.asyncDispose]() {
      await shutdown();
      if (owned) await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

/** Folio serving on 127.0.0.1 port 0, for real clients and the network. */
export async function startTestFolio(options: TestOptions = {}): Promise<TestFolio> {
  const { config, clock, dataDir, seeded, owned } = await prepare(options, { port: "0" });
  const log = memoryLogger();
  const folio = await startFolio(config, {
    clock,
    log,
    historyAfterListening: options.historyAfterListening,
  });
  const port = Number(new URL(folio.url).port);
  // Deno's fetch sets Host from the URL, so named hosts go through a client that connects to
  // 127.0.0.1 while keeping the URL's host (as a browser resolving *.localhost would).
  let client: Deno.HttpClient | null = null;
  return {
    ...folio,
    seeded: folio.seeded ?? seeded,
    clock,
    dataDir,
    logLines: log.lines,
    request: documented(options, (path, init = {}) => {
      const { host, from: _from, checkDocumented: _, ...rest } = init;
      if (!host) return fetch(`http://127.0.0.1:${port}${path}`, rest);
      client ??= Deno.createHttpClient({
        proxy: { transport: "tcp", hostname: "127.0.0.1", port },
      });
      return fetch(`http://${host}:${port}${path}`, { ...rest, client });
    }),
    async [Symbol.asyncDispose]() {
      client?.close();
      await folio.shutdown();
      if (owned) await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

/** `request` with each answer checked against the OpenAPI document unless opted out. */
function documented(options: TestOptions, request: TestFolio["request"]): TestFolio["request"] {
  if (options.checkDocumented === false) return request;
  return async (path, init = {}) => {
    const res = await request(path, init);
    if (init.checkDocumented === false) return res;
    try {
      await checkDocumented(init.method ?? "GET", path, res);
    } catch (e) {
      await res.body?.cancel();
      throw e;
    }
    return res;
  };
}

/** Reads a JSON body (always consuming it). */
export async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  return await res.json() as T;
}

/** The configuration, clock and data directory of one test service. */
async function prepare(options: TestOptions, listen: { port: string }) {
  const clock = options.clock ?? manualClock(START);
  const owned = !options.dataDir;
  const dataDir = options.dataDir ?? await Deno.makeTempDir({ prefix: "folio-test-" });
  const env = {
    PORT: listen.port,
    FOLIO_HOST: "127.0.0.1",
    FOLIO_DATA_DIR: dataDir,
    FOLIO_LOG_LEVEL: "debug",
    // Names under RFC 2606's reserved TLDs (no one outside can own them) count as proven, so tests
    // that set a domain need no record; tests of the proof use other names (domain_claims_test.ts).
    FOLIO_TRUSTED_DOMAINS: "localhost,test,example",
    // Tests count the demo's calls and charges from zero; a test of the history opts in.
    FOLIO_SEED_HISTORY: "0",
    ...options.env,
  };
  const config: Config = loadConfig(env);
  // The template fits when the store would be seeded the same way: seeded, at the start time.
  const fits = owned && config.seed && !config.seedHistory && config.dbUrl.startsWith("file:") &&
    clock.now().getTime() === new Date(START).getTime();
  const seeded = fits ? await copyTemplate(dataDir) : null;
  return { config, clock, dataDir, seeded, owned };
}

let template: Promise<{ dir: string; seeded: SeedResult; db: Client }> | null = null;

/**
 * Copies the process's seeded template store into `dir`; returns what seeding returned. The
 * database goes through `VACUUM INTO`, a consistent snapshot: copying its files could catch the
 * WAL mid-checkpoint as the template's last connection closes.
 */
async function copyTemplate(dir: string): Promise<SeedResult> {
  template ??= buildTemplate().then(async (t) => ({
    ...t,
    // A reader kept open for the process's copies; the template's own Folio is closed.
    db: (await openStore(fileUrl(t.dir), { now: new Date(START) })).db,
  }));
  const t = await template;
  await copyDir(t.dir, dir);
  await t.db.execute({ sql: "VACUUM INTO ?", args: [`${dir}/folio.db`] });
  return t.seeded;
}

/** One migrated, seeded and fully embedded store per test process. */
async function buildTemplate(): Promise<{ dir: string; seeded: SeedResult }> {
  const dir = await Deno.makeTempDir({ prefix: "folio-template-" });
  globalThis.addEventListener("unload", () => {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch { /* already gone */ }
  });
  const config = loadConfig({
    PORT: "8080",
    FOLIO_DATA_DIR: dir,
    FOLIO_LOG_LEVEL: "error",
    FOLIO_SEED_HISTORY: "0",
  });
  const folio = await assembleFolio(config, { clock: manualClock(START), log: memoryLogger() });
  try {
    const search = folio.deps.search;
    while (await search.embedPending({ publisherId: "pub_demo" }) > 0) { /* embed everything */ }
    await search.search("pub_demo", "warm the index", { limit: 1 });
    return { dir, seeded: folio.seeded! };
  } finally {
    await folio.close();
  }
}

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyDir(`${from}/${entry.name}`, `${to}/${entry.name}`);
    else if (entry.isFile && !entry.name.startsWith("folio.db")) {
      await Deno.copyFile(`${from}/${entry.name}`, `${to}/${entry.name}`);
    }
  }
}
