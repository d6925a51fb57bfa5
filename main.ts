/**
 * Folio's entry point, the only module with side effects: read config, open the store, seed the
 * demo publisher, serve, register background work, and shut down gracefully on SIGINT/SIGTERM.
 */
import { ConfigError, processConfig } from "./server/platform/config.ts";
import { cronJobs } from "./server/crons.ts";
import { operatorBanner, PortInUseError, startFolio } from "./server/runtime.ts";
import { StoreError } from "./store/db.ts";
import { DEMO_CONSOLE_EMAIL, DEMO_DOMAIN } from "./server/seed/demo.ts";
import { runTrainer, TRAINER_ARG } from "./search/trainer.ts";
import { PDF_ARG } from "./server/domain/catalog/pdf_text.ts";

async function main(): Promise<number> {
  // A compiled binary is also the search model's trainer (search/trainer.ts).
  if (Deno.args[0] === TRAINER_ARG) return await runTrainer();
  // And the PDF reader (server/domain/catalog/pdf_text.ts), imported only then: pdf.js stays out of
  // the server.
  if (Deno.args[0] === PDF_ARG) {
    return await (await import("./server/domain/catalog/pdf_reader.ts")).readerProcess(
      Deno.args[1],
    );
  }
  let folio;
  try {
    // The demo's history is written once the server answers (docs/decisions/operations.md).
    folio = await startFolio(processConfig(Deno.args), { historyAfterListening: true });
  } catch (err) {
    if (err instanceof ConfigError || err instanceof StoreError || err instanceof PortInUseError) {
      console.error(`folio: ${err.message}`);
      return 1;
    }
    throw err;
  }
  const { config } = folio;
  const lines = [
    `Folio is serving on ${folio.url} (store: ${config.dbUrl.replace(/\?.*$/, "")})`,
    `  Home:          ${config.baseUrl}/`,
    `  API reference: ${config.baseUrl}/docs (OpenAPI: ${config.baseUrl}/api/openapi.json)`,
    `  Catalog:       ${config.baseUrl}/api/marketplace/catalog`,
    `  Health:        ${config.baseUrl}/api/health`,
    `  Status:        ${config.baseUrl}/status`,
    `  Publishers:    ${config.baseUrl}/publisher (console; sign up at /publisher/signup)`,
    `  Buyers:        ${config.baseUrl}/buyer (portal; sign up at /buyer/signup)`,
    ...await operatorBanner(folio.store.db, config.baseUrl),
  ];
  const demoHost = `http://${DEMO_DOMAIN}:${config.port}`;
  lines.push(
    `  Demo site:     ${demoHost}/ (crawlers pay per page; ${demoHost}/license.xml)`,
    `  Demo REST:     ${demoHost}/api/v1/articles/search?q=energy`,
    `  Demo MCP:      ${config.baseUrl}/api/mcp/pub_demo`,
    `  Demo A2A card: ${demoHost}/.well-known/agent-card.json`,
  );
  if (folio.seeded) {
    lines.push(
      `Seeded the demo publisher "The Demo Ledger" with ${folio.seeded.articleIds.length} articles.`,
      `  Its publisher API key (shown once): ${folio.seeded.apiKey}`,
      `  Its console sign-in (shown once): ${DEMO_CONSOLE_EMAIL} / ${folio.seeded.consolePassword}`,
      `    lost it? deno task folio reset-password --email=${DEMO_CONSOLE_EMAIL}`,
    );
  }
  console.log(lines.join("\n"));
  if (folio.seeded) {
    folio.history.then((h) => {
      if (h) {
        console.log(
          `Wrote the demo's 30 days of history: ${h.calls} calls, ${h.charges} charges, ${h.intents} reader intents.`,
        );
      }
    });
  }
  folio.deps.log.info("Serving", {
    url: folio.url,
    baseUrl: config.baseUrl,
    schemaVersion: folio.store.version,
  });

  // Every node registers every cron; each job takes a lease so one node does the work.
  const holder = `node-${crypto.randomUUID()}`;
  for (const job of cronJobs(folio.deps, holder, () => folio.probe())) {
    Deno.cron(job.name, job.schedule, async () => {
      try {
        await job.run();
      } catch (err) {
        folio.deps.log.error(`Cron ${job.name} failed`, { error: String(err) });
      }
    });
  }

  const stop = () => {
    console.log("folio: shutting down (finishing in-flight requests)");
    folio.deps.log.info("Shutting down");
    folio.shutdown().then(() => Deno.exit(0));
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  return -1;
}

const code = await main();
if (code >= 0) Deno.exit(code);
