/**
 * The admin CLI: `deno task folio <command> [--flag=value ...]`. Operator chores over the same
 * store and domain code the HTTP API uses. Configuration comes from the same environment.
 */
import { buildStatement, statementCsv } from "../server/domain/billing/statement.ts";
import { receipts } from "../server/domain/billing/receipts.ts";
import { type Config, ConfigError, loadConfig } from "../server/platform/config.ts";
import { AppError } from "../server/platform/errors.ts";
import { createPublisherAccount, rotatePublisherKey } from "../server/surfaces/manage/accounts.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { rebuildIndexes } from "../server/platform/search_admin.ts";
import { systemClock } from "../server/platform/clock.ts";
import { listenerSender, runProbeRound } from "../server/domain/status/probes.ts";
import { backupStoreAt, restoreStore } from "../store/backup.ts";
import { loadMigrations, openStore, type Store, StoreError } from "../store/db.ts";
import { seedDemo } from "../server/seed/demo.ts";
import { findPublisherBySlug, getPublisher } from "../store/publishers.ts";
import { findUserByEmail, publisherUser, setUserPassword } from "../store/users.ts";
import { hashPassword } from "../server/domain/accounts/passwords.ts";
import { randomBase62 } from "../server/platform/secrets.ts";
import {
  CLI,
  createOperator,
  resetOperatorPassword,
  resetOperatorTotp,
} from "../server/domain/operators/accounts.ts";
import { findOperatorByEmail } from "../store/operators.ts";
import { resolve } from "node:path";

const USAGE = `Usage: deno task folio <command> [options]

Commands:
  migrate                                   apply pending store migrations
  seed                                      seed the demo publisher if it is missing
  create-publisher --name=N --slug=S [--email=E] [--domain=D]
                                            create a publisher and print its pk_ key (shown once)
  issue-key --publisher=SLUG_OR_ID          print a new pk_ key for a publisher (shown once);
                                            its earlier keys stop working at once
  reset-password --email=E | --publisher=SLUG_OR_ID
                                            set a new random console password (shown once) for
                                            that user (or the publisher's owner); its sessions end
  create-buyer --name=N --email=E           create a buyer and print its mk_ key (shown once)
  create-operator --email=E                 create an operator of this node and print its
                                            password (shown once); the first sign-in at
                                            /operator/login sets up its authenticator
  reset-operator-password --email=E         a new random operator password (shown once); the
                                            operator's sessions end
  reset-operator-totp --email=E             remove an operator's authenticator and recovery
                                            codes (a lost device); the next sign-in sets up anew
  rebuild-index [--publisher=ID]            rebuild search indexes from the store
  export-statement --buyer=ID [--month=YYYY-MM] [--format=json|csv]
                                            print a buyer's monthly statement
  probe [--url=http://127.0.0.1:PORT]       run one probe round now against the running service
                                            (default: this machine, FOLIO_PORT), record it, print it
  rotate-receipt-key                        make a new receipt signing key; the old public keys
                                            stay in /.well-known/jwks.json (old receipts verify)
  backup --to=FILE                          copy the store to a new file while Folio runs
  restore --from=FILE                       replace the store with a backup (Folio stopped:
                                            refused while any process has the store open);
                                            the replaced store is kept beside it

The store is chosen by FOLIO_DATA_DIR / FOLIO_DB_URL, as for the server.`;

type Command = (
  store: Store,
  flags: Record<string, string>,
  config: Config,
) => Promise<void>;

const commands: Record<string, Command> = {
  migrate: (store) => Promise.resolve(console.log(`Store is at schema version ${store.version}.`)),
  seed: async (store, _flags, config) => {
    const r = await seedDemo(store.db, { now: new Date(), history: config.seedHistory });
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
  "issue-key": async (store, f) => {
    const wanted = need(f, "publisher");
    const publisher = await getPublisher(store.db, wanted) ??
      await findPublisherBySlug(store.db, wanted);
    if (!publisher) fail(`No publisher has the id or slug "${wanted}"`);
    const apiKey = await rotatePublisherKey(store.db, publisher.id, { now: new Date() });
    console.log(
      `publisherId: ${publisher.id}\nslug: ${publisher.slug}\napiKey: ${apiKey}\n` +
        "Earlier keys of this publisher no longer work, and its console sessions are signed out.",
    );
  },
  "reset-password": async (store, f) => {
    if (!f.email && !f.publisher) fail("--email or --publisher is required");
    const user = f.email !== undefined
      ? await findUserByEmail(store.db, need(f, "email"))
      : await ownerOf(store, need(f, "publisher"));
    if (!user) fail(`No console user has the email "${f.email}"`);
    // As long as the seed's (server/seed/demo.ts); every session of the user ends with it.
    const password = randomBase62(20);
    await setUserPassword(store.db, user, await hashPassword(password), { keepSession: null });
    console.log(
      `email: ${user.email}\npassword: ${password}\n` +
        "Shown once; the user's console sessions are signed out.",
    );
  },
  "rotate-receipt-key": async (store, _f, config) => {
    const signer = receipts({ db: store.db, clock: systemClock }, {
      issuer: () => config.baseUrl,
      secret: config.receiptKeySecret,
    });
    const kid = await signer.rotate();
    const { keys } = await signer.jwks();
    console.log(
      `kid: ${kid}\nThe new key signs receipts from now on (running nodes pick it up within a ` +
        `minute); ${keys.length} public key(s) are published in /.well-known/jwks.json.`,
    );
  },
  "create-buyer": async (store, f) => {
    const r = await createBuyer(store.db, { name: need(f, "name"), email: need(f, "email") }, {
      now: new Date(),
    });
    console.log(`buyerId: ${r.buyerId}\napiKey: ${r.apiKey}`);
  },
  "create-operator": async (store, f, config) => {
    const { operator, password } = await createOperator(store.db, { email: need(f, "email") }, {
      now: new Date(),
      actor: CLI,
    });
    console.log(
      `operatorId: ${operator.id}\nemail: ${operator.email}\npassword: ${password}\n` +
        `Shown once. Sign in at ${config.baseUrl}/operator/login; the first sign-in sets up ` +
        "an authenticator app (TOTP) and shows ten recovery codes.",
    );
  },
  "reset-operator-password": async (store, f) => {
    const operator = await findOperatorByEmail(store.db, need(f, "email"));
    if (!operator) fail(`No operator has the email "${f.email}"`);
    const password = await resetOperatorPassword(store.db, operator, {
      now: new Date(),
      actor: CLI,
    });
    console.log(
      `email: ${operator.email}\npassword: ${password}\n` +
        "Shown once; the operator's sessions are signed out.",
    );
  },
  "reset-operator-totp": async (store, f) => {
    const operator = await findOperatorByEmail(store.db, need(f, "email"));
    if (!operator) fail(`No operator has the email "${f.email}"`);
    await resetOperatorTotp(store.db, operator, { now: new Date(), actor: CLI });
    console.log(
      `email: ${operator.email}\nIts authenticator and recovery codes are removed and its ` +
        "sessions signed out; the next sign-in sets up a new authenticator.",
    );
  },
  "rebuild-index": async (store, f, config) => {
    const dataDir = config.dbUrl.startsWith("file:") ? `${config.dataDir}/search` : null;
    const n = await rebuildIndexes(store, { publisherId: f.publisher, dataDir });
    console.log(`Rebuilt the search index of ${n} publisher(s).`);
  },
  probe: async (store, f, config) => {
    const target = new URL(f.url ?? `http://127.0.0.1:${config.port}`);
    const sender = listenerSender({
      hostname: target.hostname.replace(/^\[|\]$/g, ""),
      port: Number(target.port || (target.protocol === "https:" ? 443 : 80)),
    });
    try {
      const { checks } = await runProbeRound(
        { db: store.db, clock: systemClock, config },
        sender.send,
      );
      for (const c of checks) {
        const where = c.publisherId ? `${c.surface} ${c.publisherId}` : c.surface;
        const detail = c.detail ? `  ${c.detail}` : "";
        console.log(
          `${c.ok ? "ok  " : "FAIL"}  ${where.padEnd(28)} ${c.latencyMs.toFixed(1)} ms${detail}`,
        );
      }
      const failed = checks.filter((c) => !c.ok).length;
      if (failed > 0) fail(`${failed} of ${checks.length} probe checks failed (recorded)`);
      console.log(`All ${checks.length} probe checks passed (recorded).`);
    } finally {
      sender.close();
    }
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

type StorelessCommand = (flags: Record<string, string>, config: Config) => Promise<void>;

// These must not open the store: opening migrates it, so a newer build would upgrade the store
// it is about to back up, or the one it is about to replace (docs/OPERATIONS.md).
const storeless: Record<string, StorelessCommand> = {
  backup: async (f, config) => {
    const { version, bytes } = await backupStoreAt(config.dbUrl, need(f, "to"));
    console.log(
      `Backed up the store (schema version ${version}, ${size(bytes)}) to ${resolve(f.to)}`,
    );
  },
  restore: async (f, config) => {
    const latest = (await loadMigrations()).at(-1)?.version ?? 0;
    const r = await restoreStore(need(f, "from"), config.dbUrl, {
      latestVersion: latest,
      now: new Date(),
      // The search snapshots describe the replaced store; they are derived, and rebuilt when
      // missing. Removed under the restore's lock, so no server starts on them in between.
      derived: [`${config.dataDir}/search`],
    });
    const kept = r.previous
      ? `the previous store is kept at ${r.previous}`
      : "there was no previous store";
    const next = r.version < latest ? ` Start Folio to migrate it to version ${latest}.` : "";
    console.log(
      `Restored ${resolve(f.from)} (schema version ${r.version}) into ${r.target}; ${kept}.${next}`,
    );
  },
};

/** The console owner of the publisher with this id or slug. */
async function ownerOf(store: Store, wanted: string) {
  const publisher = await getPublisher(store.db, wanted) ??
    await findPublisherBySlug(store.db, wanted);
  if (!publisher) fail(`No publisher has the id or slug "${wanted}"`);
  const user = await publisherUser(store.db, publisher.id, null);
  if (!user) fail(`The publisher "${publisher.slug}" has no console sign-in`);
  return user;
}

function size(bytes: number): string {
  const units: [number, string][] = [[1e9, "GB"], [1e6, "MB"], [1e3, "kB"]];
  const [div, unit] = units.find(([d]) => bytes >= d) ?? [1, "bytes"];
  return div === 1 ? `${bytes} bytes` : `${(bytes / div).toFixed(1)} ${unit}`;
}

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
  const direct = storeless[name];
  if (!command && !direct) {
    console.error(`folio: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  let store: Store | undefined;
  try {
    const flags = parseFlags(rest);
    const config = loadConfig(Deno.env.toObject());
    if (config.dbUrl.startsWith("file:")) await Deno.mkdir(config.dataDir, { recursive: true });
    if (direct) {
      await direct(flags, config);
      return 0;
    }
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
