/** Configuration: the one module that reads the environment and command-line flags. */
import { fileUrl } from "../../store/db.ts";

export type LogLevel = "debug" | "info" | "warn" | "error";

/** `text` for people at a terminal, `json` (one object per line) for log collectors. */
export type LogFormat = "text" | "json";

/** Everything the service is configured by; see README "Configuration". */
export interface Config {
  port: number;
  host: string;
  /** Public origin of the platform, no trailing slash. */
  baseUrl: string;
  /** True when FOLIO_BASE_URL was not given and follows the real listening port. */
  baseUrlDerived: boolean;
  dataDir: string;
  dbUrl: string;
  dbAuthToken?: string;
  seed: boolean;
  /** The demo publisher is seeded with 30 days of calls, charges and reads (issue 34). */
  seedHistory: boolean;
  logLevel: LogLevel;
  logFormat: LogFormat;
  /** `OTEL_DENO=true`: Deno exports telemetry, so Folio's own spans are made (telemetry.ts). */
  telemetryExport: boolean;
  /** Name of the trusted proxy header carrying the requester's ISO country code. */
  countryHeader: string | null;
  /**
   * `FOLIO_RECEIPT_KEY_SECRET`: when set, receipt signing keys are stored encrypted under it
   * (server/domain/billing/receipts.ts); null: stored as they are, never sent by any route.
   */
  receiptKeySecret: string | null;
  /**
   * `FOLIO_PAYEE_KEY_SECRET`: the secret publishers' payee details are sealed under
   * (server/domain/billing/payees.ts); null: a key kept in the store (development only).
   */
  payeeKeySecret: string | null;
  fetchAllowLoopback: boolean;
  /**
   * Domain suffixes whose names count as proven the moment a publisher claims them (development
   * and tests); default `localhost` (RFC 6761 names reach only this machine, so no one else owns
   * them). Every other custom domain needs its DNS TXT record or HTTP token.
   */
  trustedDomains: string[];
  /**
   * Listen with SO_REUSEPORT, so several Folio processes on one machine share PORT and the kernel
   * spreads connections across them: one process per core (the store is shared, caches are kept
   * correct across processes).
   */
  reusePort: boolean;
  /**
   * Search threads for the full-text leg (search/fts_threads.ts), embedded store only; 0 ranks full
   * text on the serving thread. Default: one per core beyond the first, at most 4.
   */
  searchThreads: number;
  /**
   * Deno's own `DENO_USR2_MEMORY_TRIM=1`: Deno answers SIGUSR2 with a full collection and
   * `malloc_trim(0)`, which is how server/platform/memory.ts gives memory back (any other value:
   * SIGUSR2 would end the process).
   */
  usr2MemoryTrim: boolean;
  embeddings: { baseUrl: string; apiKey?: string; model: string } | null;
  stripe: { secretKey: string; webhookSecret: string; apiBase: string } | null;
  /** x402 payments on the landing path (docs/decisions/x402.md); null: off. */
  x402: X402Config | null;
  /** The seller on buyer invoices: the Folio operator (issue 34; README "Configuration"). */
  seller: Seller;
  /**
   * Disputes (issue 38 part 4): how many days after a charge its buyer may dispute it
   * (`FOLIO_DISPUTE_WINDOW_DAYS`, default 60), and after how many undecided days a dispute goes to
   * the operator (`FOLIO_DISPUTE_ESCALATE_DAYS`, default 14).
   */
  disputes: { windowDays: number; escalateDays: number };
  /** Credit control (issue 38; docs/decisions/billing.md "Receivables"). */
  receivables: Receivables;
  /** `FOLIO_SMTP_URL` and `FOLIO_MAIL_FROM`: null when email is off (docs/decisions/email.md). */
  mail: MailConfig | null;
}

/** Where email goes out: an `smtp://` or `smtps://` URL (credentials in it) and the From address. */
export interface MailConfig {
  smtpUrl: string;
  from: string;
}

/** Days from issue to due date, the reminder before it, and the grace before suspension. */
export interface Receivables {
  netDays: number;
  dueSoonDays: number;
  graceDays: number;
}

/** The defaults: due in 30 days, reminded 7 days before, suspended 14 days after. */
export const RECEIVABLES: Receivables = { netDays: 30, dueSoonDays: 7, graceDays: 14 };

/** Who sells on an invoice: name, postal address lines, contact email, tax id (may be empty). */
export interface Seller {
  name: string;
  address: string[];
  email: string;
  taxId: string;
}

/** Raised for invalid configuration; the message names the variable and the problem. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** The process's configuration: its environment and `--flag=value` arguments (main.ts). */
export function processConfig(args: string[]): Config {
  return loadConfig(Deno.env.toObject(), args);
}

/** Reads configuration from an environment map and `--flag=value` arguments (flags win). */
export function loadConfig(
  env: Record<string, string | undefined>,
  args: string[] = [],
): Config {
  const vars = { ...env, ...flagsToEnv(args) };
  const port = integer(vars, "PORT", 8080, 0, 65535);
  const host = vars.FOLIO_HOST?.trim() || "0.0.0.0";
  const baseUrlRaw = vars.FOLIO_BASE_URL?.trim();
  const baseUrl = baseUrlRaw ? origin("FOLIO_BASE_URL", baseUrlRaw) : `http://localhost:${port}`;
  const dataDir = vars.FOLIO_DATA_DIR?.trim() || "./data";
  const dbUrl = vars.FOLIO_DB_URL?.trim() || fileUrl(dataDir);
  if (!/^(file:|libsql:\/\/|https?:\/\/|wss?:\/\/)/.test(dbUrl)) {
    throw new ConfigError(
      `FOLIO_DB_URL must start with file:, libsql://, http:// or https://, got "${dbUrl}"`,
    );
  }
  const logLevel = (vars.FOLIO_LOG_LEVEL?.trim().toLowerCase() || "info") as LogLevel;
  if (!["debug", "info", "warn", "error"].includes(logLevel)) {
    throw new ConfigError(
      `FOLIO_LOG_LEVEL must be one of debug, info, warn, error, got "${vars.FOLIO_LOG_LEVEL}"`,
    );
  }
  const logFormat = (vars.FOLIO_LOG_FORMAT?.trim().toLowerCase() || "text") as LogFormat;
  if (!["text", "json"].includes(logFormat)) {
    throw new ConfigError(`FOLIO_LOG_FORMAT must be text or json, got "${vars.FOLIO_LOG_FORMAT}"`);
  }
  const countryHeader = vars.FOLIO_COUNTRY_HEADER?.trim().toLowerCase() || null;
  if (countryHeader && !/^[a-z0-9-]+$/.test(countryHeader)) {
    throw new ConfigError(
      `FOLIO_COUNTRY_HEADER must be an HTTP header name, got "${countryHeader}"`,
    );
  }
  return {
    port,
    host,
    baseUrl,
    baseUrlDerived: !baseUrlRaw,
    dataDir,
    dbUrl,
    dbAuthToken: vars.FOLIO_DB_AUTH_TOKEN || undefined,
    seed: boolean(vars, "FOLIO_SEED", true),
    seedHistory: boolean(vars, "FOLIO_SEED_HISTORY", true),
    logLevel,
    logFormat,
    telemetryExport: vars.OTEL_DENO === "true",
    countryHeader,
    receiptKeySecret: vars.FOLIO_RECEIPT_KEY_SECRET || null,
    payeeKeySecret: vars.FOLIO_PAYEE_KEY_SECRET || null,
    fetchAllowLoopback: boolean(vars, "FOLIO_FETCH_ALLOW_LOOPBACK", false),
    trustedDomains: suffixes("FOLIO_TRUSTED_DOMAINS", vars.FOLIO_TRUSTED_DOMAINS ?? "localhost"),
    reusePort: boolean(vars, "FOLIO_REUSE_PORT", false),
    searchThreads: integer(vars, "FOLIO_SEARCH_THREADS", DEFAULT_SEARCH_THREADS, 0, 16),
    usr2MemoryTrim: vars.DENO_USR2_MEMORY_TRIM === "1",
    embeddings: vars.FOLIO_EMBEDDINGS_URL
      ? {
        baseUrl: origin("FOLIO_EMBEDDINGS_URL", vars.FOLIO_EMBEDDINGS_URL),
        apiKey: vars.FOLIO_EMBEDDINGS_API_KEY || undefined,
        model: vars.FOLIO_EMBEDDINGS_MODEL || "text-embedding-3-small",
      }
      : null,
    stripe: stripe(vars),
    x402: x402Config(vars),
    seller: {
      name: vars.FOLIO_SELLER_NAME?.trim() || "Folio",
      // Lines separated by "|" (an environment value holds no newline comfortably).
      address: (vars.FOLIO_SELLER_ADDRESS ?? "").split("|").map((l) => l.trim()).filter(Boolean),
      email: vars.FOLIO_SELLER_EMAIL?.trim() ?? "",
      taxId: vars.FOLIO_SELLER_TAX_ID?.trim() ?? "",
    },
    disputes: {
      windowDays: integer(vars, "FOLIO_DISPUTE_WINDOW_DAYS", 60, 1, 3650),
      escalateDays: integer(vars, "FOLIO_DISPUTE_ESCALATE_DAYS", 14, 1, 365),
    },
    receivables: {
      netDays: integer(vars, "FOLIO_INVOICE_NET_DAYS", RECEIVABLES.netDays, 0, 365),
      dueSoonDays: integer(vars, "FOLIO_INVOICE_REMINDER_DAYS", RECEIVABLES.dueSoonDays, 1, 60),
      graceDays: integer(vars, "FOLIO_SUSPENSION_GRACE_DAYS", RECEIVABLES.graceDays, 0, 365),
    },
    mail: mail(vars, baseUrl),
  };
}

function mail(vars: Record<string, string | undefined>, baseUrl: string): MailConfig | null {
  const raw = vars.FOLIO_SMTP_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError("FOLIO_SMTP_URL must be a URL like smtp://user:pass@host:587");
  }
  // The credentials stay out of the message: it may end up in a log.
  if ((url.protocol !== "smtp:" && url.protocol !== "smtps:") || !url.hostname) {
    throw new ConfigError(
      `FOLIO_SMTP_URL must be smtp://host:port or smtps://host:port, got a ${url.protocol} URL`,
    );
  }
  const from = vars.FOLIO_MAIL_FROM?.trim() || `Folio <no-reply@${new URL(baseUrl).hostname}>`;
  if (/[\r\n]/.test(from) || !/@[^@\s>]+>?$/.test(from)) {
    throw new ConfigError(`FOLIO_MAIL_FROM must be an address like "Folio <billing@example.com>"`);
  }
  return { smtpUrl: raw, from };
}

const DEFAULT_SEARCH_THREADS = Math.min(4, Math.max(1, navigator.hardwareConcurrency - 1));

/** The same config with the port the server really bound (PORT=0 picks a free one). */
export function withListeningPort(config: Config, port: number): Config {
  if (!config.baseUrlDerived) return { ...config, port };
  return { ...config, port, baseUrl: `http://localhost:${port}` };
}

function stripe(vars: Record<string, string | undefined>): Config["stripe"] {
  const secretKey = vars.STRIPE_SECRET_KEY?.trim();
  const webhookSecret = vars.STRIPE_WEBHOOK_SECRET?.trim();
  if (!secretKey && !webhookSecret) return null;
  if (!secretKey || !webhookSecret) {
    throw new ConfigError(
      "STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together (checkout needs both)",
    );
  }
  const apiBase = vars.STRIPE_API_BASE
    ? origin("STRIPE_API_BASE", vars.STRIPE_API_BASE)
    : "https://api.stripe.com";
  return { secretKey, webhookSecret, apiBase };
}

/** x402 (docs/OPERATIONS.md "x402"): every variable or none; off when FOLIO_X402_NETWORK is unset. */
export interface X402Config {
  /** CAIP-2 chain id, e.g. `eip155:8453` (Base) or `eip155:31337` (a local node). */
  network: `${string}:${string}`;
  /** The token's contract address (EIP-3009, 6 decimals: one base unit is one micro-dollar). */
  asset: string;
  /** The token's EIP-712 domain name and version, which the payer signs over. */
  assetName: string;
  assetVersion: string;
  /** The operator's receiving address. */
  payTo: string;
  /** The facilitator's base URL (its /verify, /settle and /supported). */
  facilitatorUrl: string;
  /** A JSON-RPC URL of the chain, to reconcile settlements a crash interrupted; optional. */
  rpcUrl: string | null;
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function x402Config(vars: Record<string, string | undefined>): X402Config | null {
  const network = vars.FOLIO_X402_NETWORK?.trim();
  if (!network) return null;
  if (!/^eip155:\d+$/.test(network)) {
    throw new ConfigError(
      `FOLIO_X402_NETWORK must be an EVM CAIP-2 id like eip155:8453, got "${network}"`,
    );
  }
  const address = (name: string) => {
    const v = vars[name]?.trim() ?? "";
    if (!EVM_ADDRESS.test(v)) {
      throw new ConfigError(`${name} must be a 0x address of 40 hex digits`);
    }
    return v;
  };
  const text = (name: string) => {
    const v = vars[name]?.trim();
    if (!v) throw new ConfigError(`${name} must be set with FOLIO_X402_NETWORK`);
    return v;
  };
  return {
    network: network as `${string}:${string}`,
    asset: address("FOLIO_X402_ASSET"),
    assetName: text("FOLIO_X402_ASSET_NAME"),
    assetVersion: text("FOLIO_X402_ASSET_VERSION"),
    payTo: address("FOLIO_X402_PAY_TO"),
    facilitatorUrl: origin("FOLIO_X402_FACILITATOR_URL", text("FOLIO_X402_FACILITATOR_URL")),
    rpcUrl: vars.FOLIO_X402_RPC_URL ? origin("FOLIO_X402_RPC_URL", vars.FOLIO_X402_RPC_URL) : null,
  };
}

/** The flags `task start` takes: each sets the variable of the same name (README "Configuration"). */
const FLAGS = [
  "port",
  "host",
  "base-url",
  "data-dir",
  "db-url",
  "db-auth-token",
  "seed",
  "seed-history",
  "log-level",
  "log-format",
  "country-header",
  "fetch-allow-loopback",
  "trusted-domains",
  "reuse-port",
  "search-threads",
  "embeddings-url",
  "embeddings-api-key",
  "embeddings-model",
];

function flagsToEnv(args: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const arg of args) {
    const m = /^--([a-z][a-z0-9-]*)=(.*)$/.exec(arg);
    if (!m) throw new ConfigError(`Unknown argument "${arg}": flags look like --port=8080`);
    const flag = m[1].replace(/^folio-/, "");
    if (!FLAGS.includes(flag)) {
      const near = FLAGS.find((f) => distance(f, flag) <= 2);
      throw new ConfigError(
        `Unknown flag --${m[1]}${near ? ` (did you mean --${near}?)` : ""}: the flags are ${
          FLAGS.map((f) => `--${f}`).join(", ")
        }`,
      );
    }
    const name = flag.toUpperCase().replaceAll("-", "_");
    out[name === "PORT" ? "PORT" : `FOLIO_${name}`] = m[2];
  }
  return out;
}

/** Edit distance, to suggest the flag a typo meant. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

function integer(
  vars: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = vars[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function boolean(vars: Record<string, string | undefined>, name: string, fallback: boolean) {
  const raw = vars[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new ConfigError(`${name} must be 1 or 0 (or true/false), got "${vars[name]}"`);
}

/** A comma-separated list of domain suffixes ("localhost, test"); empty trusts none. */
function suffixes(name: string, raw: string): string[] {
  const list = raw.split(",").map((s) => s.trim().toLowerCase().replace(/^\*?\./, ""));
  const bad = list.find((s) => s !== "" && !/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(s));
  if (bad !== undefined) {
    throw new ConfigError(`${name} must be domain suffixes separated by commas, got "${bad}"`);
  }
  return list.filter((s) => s !== "");
}

function origin(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(`${name} must use http or https, got "${raw}"`);
  }
  if (url.search || url.hash || url.username) {
    throw new ConfigError(`${name} must not carry a query, fragment or credentials, got "${raw}"`);
  }
  return url.href.replace(/\/+$/, "");
}
