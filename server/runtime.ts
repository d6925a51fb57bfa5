/**
 * Assembles a running Folio: store, seed, call log, background work and the HTTP server.
 * main.ts calls it for real; tests call it with a temporary data dir and port 0.
 */
import { createExtractor } from "./domain/catalog/extract_thread.ts";
import { receipts } from "./domain/billing/receipts.ts";
import { createOpenAiEmbedder, createSearchService, type SearchService } from "../search/mod.ts";
import { type Client, openStore, type Store } from "../store/db.ts";
import { startCheckpointer } from "../store/checkpointer.ts";
import { countOperators } from "../store/operators.ts";
import { plural } from "./platform/words.ts";
import { seedDemo, seedDemoHistory, type SeedResult } from "./seed/demo.ts";
import type { HistorySummary } from "./seed/history.ts";
import { createApp } from "./app.ts";
import { type CallLog, createCallLog } from "./platform/call_log.ts";
import { type Clock, systemClock } from "./platform/clock.ts";
import { type Config, withListeningPort } from "./platform/config.ts";
import { createFetcher, type GuardedFetcher } from "./domain/catalog/fetcher.ts";
import { stopRobotsFetches } from "./domain/catalog/robots.ts";
import { resolveTxtSystem } from "./domain/catalog/dns.ts";
import { startIngestionWorker } from "./domain/catalog/jobs.ts";
import { startWebhookWorker } from "./domain/webhooks/worker.ts";
import { type MailWorker, startMailWorker } from "./domain/notifications/worker.ts";
import { importingBooks, syncChapterUrls } from "./domain/catalog/books.ts";
import { mallocTrim, memoryReleaser } from "./platform/memory.ts";
import { backfillSitePaths } from "../store/articles.ts";
import { listPublishers } from "../store/publishers.ts";
import { verifyTrustedClaims } from "./surfaces/manage/domains.ts";
import { reconcileX402 } from "./domain/x402/reconcile.ts";
import type { AppDeps } from "./deps.ts";
import { createLogger, type Logger } from "./platform/log.ts";
import { setTelemetryExport } from "./platform/telemetry.ts";
import { preload } from "./platform/lazy.ts";
import { listenerSender, runProbeRound } from "./domain/status/probes.ts";
import { sharedTurn } from "../store/turns.ts";

/** A started service. */
export interface Folio {
  config: Config;
  deps: AppDeps;
  store: Store;
  /** Set when this start seeded the demo publisher (its key is shown once). */
  seeded: SeedResult | null;
  /**
   * The demo's 30 days of history: `seeded.history`, or with `historyAfterListening` the history
   * being written while the server already answers (null: none was asked for, or it failed).
   */
  history: Promise<HistorySummary | null>;
  /** The origin the server listens on, e.g. http://localhost:8080. */
  url: string;
  /** Runs one probe round against this server's own listener and records it. */
  probe(): ReturnType<typeof runProbeRound>;
  /** Stops accepting connections, finishes in-flight requests, flushes logs, closes the store. */
  shutdown(): Promise<void>;
}

/** Raised when the listening port is taken; the message is one line for the operator. */
export class PortInUseError extends Error {
  override name = "PortInUseError";
}

/** A service assembled but not listening: tests call its handler in process. */
export interface AssembledFolio {
  deps: AppDeps;
  store: Store;
  seeded: SeedResult | null;
  /** Builds the app for `config` (the base URL may change once the port is known). */
  handler(config: Config): Deno.ServeHandler;
  /** Starts the background work: search embedding and the ingestion worker. */
  startBackground(): void;
  /** Stops background work, flushes the call log, closes search and the store. */
  close(): Promise<void>;
}

/** Opens the store, seeds it if asked, and wires the dependencies; nothing listens yet. */
export async function assembleFolio(
  config: Config,
  options: { clock?: Clock; log?: Logger; historyAfterListening?: boolean } = {},
): Promise<AssembledFolio> {
  const clock = options.clock ?? systemClock;
  const log = options.log ??
    createLogger(config.logLevel, undefined, undefined, config.logFormat);
  if (config.dbUrl.startsWith("file:")) await Deno.mkdir(config.dataDir, { recursive: true });
  const store = await openStore(config.dbUrl, { authToken: config.dbAuthToken, now: clock.now() });
  let callLog: CallLog | undefined;
  let search: SearchService | undefined;
  try {
    const fetcher = createFetcher({
      userAgent: USER_AGENT,
      allowLoopback: config.fetchAllowLoopback,
      loopbackUnthrottled: config.fetchAllowLoopback,
    });
    search = createSearchService({
      db: store.db,
      dataDir: config.dbUrl.startsWith("file:") ? `${config.dataDir}/search` : null,
      embedder: embedderFor(config, fetcher),
      now: () => clock.now(),
      onError: (message, err) => log.error(message, { error: String(err) }),
      holdTraining: importingBooks,
      afterBurst: memoryReleaser({ usr2MemoryTrim: config.usr2MemoryTrim }).release,
      threads: store.path && config.searchThreads > 0
        ? {
          storePath: store.path,
          count: config.searchThreads,
          onCacheReleased: mallocTrim() ?? undefined,
        }
        : undefined,
    });
    const searchService = search;
    const seeded = config.seed
      ? await seedDemo(store.db, {
        now: clock.now(),
        onArticle: (publisherId, articleId) => searchService.articleChanged(publisherId, articleId),
        history: config.seedHistory && !options.historyAfterListening,
      })
      : null;
    callLog = createCallLog(store.db, { log });
    const deps: AppDeps = {
      store,
      config,
      clock,
      log,
      callLog,
      search,
      fetcher,
      resolveTxt: resolveTxtSystem,
      receipts: receipts({ db: store.db, clock }, {
        issuer: () => deps.config.baseUrl,
        secret: config.receiptKeySecret,
      }),
      extractor: createExtractor(),
    };
    await preparePublisherHosts(deps);
    let ingestion: { stop(): Promise<void> } | null = null;
    let webhooks: { stop(): Promise<void> } | null = null;
    let mail: MailWorker | null = null;
    return {
      deps,
      store,
      seeded,
      handler(listening) {
        // PORT=0 learns its port only now, and chapter URLs carry it.
        if (listening.baseUrl !== deps.config.baseUrl) {
          preparePublisherHosts({ ...deps, config: listening }).catch((err) =>
            log.error("chapter URLs not updated", { error: String(err) })
          );
        }
        deps.config = listening;
        return createApp(deps).fetch;
      },
      startBackground() {
        searchService.start();
        // The worker resumes jobs a previous process left running (stale heartbeat) as it starts.
        ingestion ??= startIngestionWorker(deps);
        webhooks ??= startWebhookWorker(deps);
        mail ??= startMailWorker(deps);
        // Payments a crash left between the chain and the ledger (docs/decisions/x402.md).
        const x402 = deps.config.x402;
        if (x402) {
          reconcileX402({ db: store.db, clock, log, config: x402 }).catch((err) =>
            log.error("x402 reconciliation failed", { error: String(err) })
          );
        }
      },
      async close() {
        // Running jobs hand their work back to the queue before the store closes.
        await ingestion?.stop();
        await webhooks?.stop();
        await mail?.stop();
        await stopRobotsFetches(deps);
        await callLog!.close();
        await searchService.close();
        deps.extractor.close();
        store.close();
      },
    };
  } catch (err) {
    await callLog?.close();
    await search?.close();
    store.close();
    throw err;
  }
}

/**
 * Verifies pending claims on trusted names (a store migrated by 0023 keeps demo.localhost), gives
 * older articles their host path and every publisher's chapters their host URL.
 */
async function preparePublisherHosts(deps: AppDeps): Promise<void> {
  await verifyTrustedClaims(deps);
  // The driver is synchronous: without a macrotask between batches, a catalog of 100k older rows
  // would hold every request for seconds (restart to first answer was 8.7 s at 100k).
  await backfillSitePaths(deps.store.db, {
    batch: 500,
    between: sharedTurn,
  });
  for (const p of await listPublishers(deps.store.db)) await syncChapterUrls(deps, p);
}

/** When what loads on first use is loaded anyway (server/platform/lazy.ts), after listening. */
const PRELOAD_AFTER_MS = 1000;

/**
 * Assembles Folio and serves it on `config.host:config.port`. `historyAfterListening` (the start
 * command's) writes the new demo's history once the server listens, in turns, instead of before
 * (docs/decisions/operations.md, "The start's own work"); tests and benches read it at once.
 */
export async function startFolio(
  config: Config,
  options: { clock?: Clock; log?: Logger; background?: boolean; historyAfterListening?: boolean } =
    {},
): Promise<Folio> {
  const folio = await assembleFolio(config, options);
  setTelemetryExport(config.telemetryExport);
  // WAL checkpoints on a thread of their own, not inside a request's commit (store/checkpointer.ts).
  const checkpoints = startCheckpointer(folio.store.db, folio.store.path);
  try {
    // The handler is bound after listening so that PORT=0 can put the real port in the base URL.
    let handler: Deno.ServeHandler = () => new Response("Starting", { status: 503 });
    const server = serve(config, (req, info) => handler(req, info));
    const port = server.addr.port;
    handler = folio.handler(withListeningPort(config, port));
    if (options.background !== false) folio.startBackground();
    // The SDKs that load on first use load now, behind the first answers (server/platform/lazy.ts).
    const preloading = preload(PRELOAD_AFTER_MS);
    const seeded = folio.seeded;
    const history = seeded && config.seedHistory && options.historyAfterListening
      ? seedDemoHistory(folio.store.db, seeded, {
        now: folio.deps.clock.now(),
        between: sharedTurn,
      }).catch((err) => {
        folio.deps.log.error("demo history not written", { error: String(err) });
        return null;
      })
      : Promise.resolve(seeded?.history ?? null);
    // A wildcard listener is reached on loopback; a specific address, there.
    const probeTarget = listenerSender({
      hostname: ["0.0.0.0", "::", ""].includes(config.host) ? "127.0.0.1" : config.host,
      port,
    });
    let stopping: Promise<void> | null = null;
    const shutdown = () =>
      stopping ??= (async () => {
        await server.shutdown();
        // The store stays open until the demo's history is written (one transaction).
        await history;
        await preloading.stop();
        probeTarget.close();
        await checkpoints?.stop();
        await folio.close();
      })();
    return {
      config: folio.deps.config,
      deps: folio.deps,
      store: folio.store,
      seeded: folio.seeded,
      history,
      url: `http://localhost:${port}`,
      probe: () =>
        runProbeRound(
          { db: folio.store.db, clock: folio.deps.clock, config: folio.deps.config },
          probeTarget.send,
        ),
      shutdown,
    };
  } catch (err) {
    await checkpoints?.stop();
    await folio.close();
    throw err;
  }
}

/** The honest User-Agent of every server-side request. */
export const USER_AGENT =
  "FolioBot/0.1 (+content licensing for AI; fetches only what publishers list)";

function embedderFor(config: Config, fetcher: GuardedFetcher) {
  if (!config.embeddings) return "local" as const;
  return createOpenAiEmbedder({
    baseUrl: config.embeddings.baseUrl,
    apiKey: config.embeddings.apiKey,
    model: config.embeddings.model,
    fetch: async (url, init) => {
      const res = await fetcher.fetch(url, {
        method: "POST",
        body: init.body,
        headers: init.headers,
        allowAuthorization: true,
        accept: ["application/json"],
      });
      return { status: res.status, text: () => res.text() };
    },
  });
}

function serve(config: Config, handler: Deno.ServeHandler) {
  try {
    return Deno.serve({
      port: config.port,
      hostname: config.host,
      reusePort: config.reusePort,
      onListen: () => {},
    }, handler);
  } catch (err) {
    if (err instanceof Deno.errors.AddrInUse) {
      throw new PortInUseError(
        `Port ${config.port} on ${config.host} is already in use: stop the other server or set PORT (0 picks a free port)`,
      );
    }
    throw err;
  }
}

/**
 * The start banner's lines about operators (docs/decisions/operator.md "Accounts and the start
 * banner"): a node without one says how to make one; it never makes one itself.
 */
export async function operatorBanner(db: Client, baseUrl: string): Promise<string[]> {
  const n = await countOperators(db);
  if (n > 0) return [`  Operators:     ${baseUrl}/operator (console; ${plural(n, "operator")})`];
  return [
    "  Operators:     none yet. Make the first one (its password is shown once):",
    "                   deno task folio create-operator --email=you@example.com",
    `                 then sign in at ${baseUrl}/operator/login and set up its authenticator.`,
  ];
}
