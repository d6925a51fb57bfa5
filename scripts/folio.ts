/**
 * The admin CLI: `deno task folio <command> [--flag=value ...]`. Operator chores over the same
 * store and domain code the HTTP API uses. Configuration comes from the same environment.
 */
import { buildStatement, statementCsv } from "../server/billing/statement.ts";
import { type Config, ConfigError, loadConfig } from "../server/config.ts";
import { AppError } from "../server/errors.ts";
import { createPublisherAccount } from "../server/manage/accounts.ts";
import { createBuyer } from "../server/marketplace/buyers.ts";
import { rebuildIndexes } from "../server/search_admin.ts";
import { openStore, type Store, StoreError } from "../store/db.ts";
import { seedDemo } from "../server/seed/demo.ts";

const USAGE = `Usage: deno task folio <command> [options]

Commands:
  migrate                                   apply pending store migrations
  seed                                      seed the demo publisher if it is missing
  create-publisher --name=N --slug=S [--email=E] [--domain=D]
                                            create a publisher and print its pk_ key (shown once)
  create-buyer --name=N --email=E           create a buyer and print its mk_ key (shown once)
  rebuild-index [--publisher=ID]            rebuild search indexes from the store
  export-statement --buyer=ID [--month=YYYY-MM] [--format=json|csv]
                                            print a buyer's monthly statement

The store is chosen by FOLIO_DATA_DIR / FOLIO_DB_URL, as for the server.`;

type Command = (
  store: Store,
  flags: Record<string, string>,
  config: Config,
) => Promise<void>;

const commands: Record<string, Command> = {
  migrate: (store) => Promise.resolve(console.log(`Store is at schema version ${store.version}.`)),
  seed: async (store) => {
    const r = await seedDemo(store.db, { now: new Date() });
    console.log(
      r
        ? `Seeded the demo publisher with ${r.articleIds.length} articles; its key: ${r.apiKey}`
        : "The demo publisher already exists; nothing to do.",
    );
  },
  "create-publisher": async (store, f) => {
    const { publisher, apiKey } = await createPublisherAccount(store.db, {
      name: need(f, "name"),
      slug: need(f, "slug"),
      email: f.email ?? null,
      customDomain: f.domain ?? null,
    }, { now: new Date() });
    console.log(`publisherId: ${publisher.id}\nslug: ${publisher.slug}\napiKey: ${apiKey}`);
  },
  "create-buyer": async (store, f) => {
    const r = await createBuyer(store.db, { name: need(f, "name"), email: need(f, "email") }, {
      now: new Date(),
    });
    console.log(`buyerId: ${r.buyerId}\napiKey: ${r.apiKey}`);
  },
  "rebuild-index": async (store, f, config) => {
    const dataDir = config.dbUrl.startsWith("file:") ? `${config.dataDir}/search` : null;
    const n = await rebuildIndexes(store, { publisherId: f.publisher, dataDir });
    console.log(`Rebuilt the search index of ${n} publisher(s).`);
  },
  "export-statement": async (store, f) => {
    const month = f.month ?? new Date().toISOString().slice(0, 7);
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) {
      fail(`--month must look like 2026-11, got "${month}"`);
    }
    const statement = await buildStatement(store.db, need(f, "buyer"), month);
    const format = f.format ?? "json";
    if (format === "csv") console.log(statementCsv(statement));
    else if (format === "json") console.log(JSON.stringify(statement, null, 2));
    else fail(`--format must be json or csv, got "${format}"`);
  },
};

function need(flags: Record<string, string>, name: string): string {
  const v = flags[name];
  if (!v) fail(`--${name} is required`);
  return v;
}

function fail(message: string): never {
  throw new CliError(message);
}

class CliError extends Error {}

function parseFlags(args: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of args) {
    const m = /^--([a-z-]+)=(.*)$/s.exec(a);
    if (!m) fail(`Unknown argument "${a}": options look like --name=value`);
    out[m[1]] = m[2];
  }
  return out;
}

async function run(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (!name || name === "help" || name === "--help") {
    console.log(USAGE);
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    console.error(`folio: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  let store: Store | undefined;
  try {
    const flags = parseFlags(rest);
    const config = loadConfig(Deno.env.toObject());
    if (config.dbUrl.startsWith("file:")) await Deno.mkdir(config.dataDir, { recursive: true });
    store = await openStore(config.dbUrl, { authToken: config.dbAuthToken, now: new Date() });
    await command(store, flags, config);
    return 0;
  } catch (err) {
    if (
      err instanceof CliError || err instanceof ConfigError || err instanceof StoreError ||
      err instanceof AppError
    ) {
      console.error(`folio: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    store?.close();
  }
}

if (import.meta.main) Deno.exit(await run(Deno.args));
