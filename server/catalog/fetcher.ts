/**
 * The one guarded fetcher for every server-side request (source pages, robots.txt, embeddings,
 * sponsor tools): http(s) only, addresses checked after DNS and on every redirect, connections
 * pinned to the checked address, time and size limits enforced while streaming.
 *
 * Pinning: each attempt opens a one-shot SOCKS5 tunnel on 127.0.0.1 that dials only the checked
 * addresses, and Deno's fetch goes through it with `proxy: { transport: "socks5" }`. Deno sends the
 * URL's host name to the tunnel (it never resolves it itself), so there is no second DNS lookup to
 * rebind, while TLS still verifies the URL's host name end to end. The `transport: "tcp"` proxy
 * (DESIGN.md section 10) pins http correctly but, under Deno 2.9.6, sends https requests as
 * plaintext, so it cannot carry https (see fetcher_test.ts).
 */
import {
  type ForbiddenReason,
  isForbiddenAddress,
  isLoopbackAddress,
  parseIp,
} from "./ip_ranges.ts";

/** Why a request was refused or could not complete. */
export type FetchRefusedCode =
  | "bad_url"
  | "bad_scheme"
  | "bad_port"
  | "userinfo"
  | "blocked_address"
  | "dns_failure"
  | "too_many_redirects"
  | "too_large"
  | "timeout"
  | "unsupported_type"
  | "http_status"
  | "network";

/** A request the fetcher would not make or could not complete safely; `url` is the refused hop. */
export class FetchRefused extends Error {
  readonly code: FetchRefusedCode;
  readonly url: string;
  /** Final HTTP status, for code "http_status". */
  readonly status?: number;
  /** Address class, for code "blocked_address". */
  readonly reason?: ForbiddenReason;
  constructor(
    code: FetchRefusedCode,
    opts: {
      url: string;
      detail: string;
      status?: number;
      reason?: ForbiddenReason;
      cause?: unknown;
    },
  ) {
    const { url, detail, ...extra } = opts;
    super(`Refused ${safeText(url)}: ${detail}`, { cause: extra.cause });
    this.name = "FetchRefused";
    this.code = code;
    this.url = url;
    this.status = extra.status;
    this.reason = extra.reason;
  }
}

/** Settings shared by every request made through one fetcher. */
export interface FetcherOptions {
  userAgent: string;
  /** Test and local-origin switch: opens 127.0.0.0/8 and ::1 only, on any port. */
  allowLoopback?: boolean;
  resolve?: (hostname: string) => Promise<string[]>;
  maxRedirects?: number;
  connectTimeoutMs?: number;
  /** Deadline for the whole call: every hop, retry, header and body byte. */
  timeoutMs?: number;
  maxBytes?: number;
  perHostConcurrency?: number;
  minHostIntervalMs?: number;
  /** Global cap on requests in flight through this fetcher. */
  maxConcurrent?: number;
  retries?: number;
  /** First backoff step; doubles per retry, plus up to the same again in jitter. */
  retryBaseMs?: number;
  allowedPorts?: number[];
  /** Extra trusted roots (PEM), for test servers. */
  caCerts?: string[];
  /** Opens the TCP connection to a checked address; injectable so tests can stand in a network. */
  dial?: (address: string, opts: { port: number; signal: AbortSignal }) => Promise<Deno.Conn>;
}

/** Per-request settings. */
export interface FetchOptions {
  /** Allowed content-type prefixes; anything else is refused before the body is read. */
  accept?: string[];
  maxBytes?: number;
  timeoutMs?: number;
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  /** Forward an Authorization header (the embeddings provider key), to the first origin only. */
  allowAuthorization?: boolean;
  signal?: AbortSignal;
}

/** A complete, size-checked response. */
export interface FetchedResponse {
  /** Final URL after redirects. */
  url: string;
  status: number;
  contentType: string;
  headers: Headers;
  bytes: Uint8Array;
  /** The checked address the final hop connected to. */
  address: string;
  text(): string;
}

/** The fetcher every server-side request goes through. */
export interface GuardedFetcher {
  fetch(url: string, opts?: FetchOptions): Promise<FetchedResponse>;
}

const MiB = 1024 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Caller credentials and internal routing headers never leave the process.
const NEVER_SENT = new Set(
  ("authorization cookie cookie2 proxy-authorization host forwarded x-forwarded-for " +
    "x-forwarded-host x-forwarded-proto x-real-ip").split(" "),
);
const REASON_TEXT: Partial<Record<ForbiddenReason, string>> = {
  cgnat: "carrier-grade NAT",
  link_local: "link-local",
  unique_local: "unique-local",
  documentation: "reserved for documentation",
  benchmark: "reserved for benchmarking",
  ipv4_mapped: "an IPv6 form of a loopback address",
  invalid: "not an IP address",
};

function safeText(s: string): string {
  // deno-lint-ignore no-control-regex
  return s.slice(0, 300).replace(/[\x00-\x1f\x7f]/g, (c) => encodeURIComponent(c));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Counting semaphore whose waiters leave the queue when their signal aborts. */
class Gate {
  #active = 0;
  #queue: (() => void)[] = [];
  constructor(readonly limit: number) {}
  get idle(): boolean {
    return this.#active === 0 && this.#queue.length === 0;
  }
  async acquire(signal?: AbortSignal): Promise<void> {
    if (this.#active < this.limit) return void this.#active++;
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = this.#queue.indexOf(grant);
        if (i >= 0) this.#queue.splice(i, 1);
        reject(signal!.reason);
      };
      this.#queue.push(grant);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
  release(): void {
    const next = this.#queue.shift();
    if (next) next(); // the slot passes straight to the next waiter
    else this.#active--;
  }
}

async function readExact(conn: Deno.Conn, n: number): Promise<Uint8Array> {
  const out = new Uint8Array(n);
  for (let off = 0; off < n;) {
    const got = await conn.read(out.subarray(off));
    if (got === null) throw new Error("tunnel client closed early");
    off += got;
  }
  return out;
}

async function writeAll(conn: Deno.Conn, data: Uint8Array | number[]): Promise<void> {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  for (let off = 0; off < bytes.length;) off += await conn.write(bytes.subarray(off));
}

/** Minimal SOCKS5 server side (RFC 1928/1929): username/password, CONNECT; target ignored. */
async function socksHandshake(
  c: Deno.Conn,
  { user, pass }: { user: string; pass: string },
): Promise<boolean> {
  const [version, count] = await readExact(c, 2);
  if (version !== 5 || !(await readExact(c, count)).includes(2)) {
    await writeAll(c, [5, 0xff]);
    return false;
  }
  await writeAll(c, [5, 2]);
  const dec = new TextDecoder();
  const [, ulen] = await readExact(c, 2);
  const gotUser = dec.decode(await readExact(c, ulen));
  const gotPass = dec.decode(await readExact(c, (await readExact(c, 1))[0]));
  const ok = gotUser === user && gotPass === pass;
  await writeAll(c, [1, ok ? 0 : 1]);
  if (!ok) return false;
  const [, cmd, , atyp] = await readExact(c, 4);
  const len = atyp === 1 ? 4 : atyp === 4 ? 16 : atyp === 3 ? (await readExact(c, 1))[0] : -1;
  if (cmd !== 1 || len < 0) {
    await writeAll(c, [5, 7, 0, 1, 0, 0, 0, 0, 0, 0]);
    return false;
  }
  // The requested destination is read and ignored: this tunnel only reaches the checked addresses.
  await readExact(c, len + 2);
  return true;
}

interface Tunnel {
  proxy: Deno.Proxy;
  connectedTo?: string;
  connectTimedOut: boolean;
  close(): Promise<void>;
}

/** A one-shot SOCKS5 tunnel on 127.0.0.1 to the first of `addresses` that accepts. */
function openTunnel(
  addresses: string[],
  opts: { port: number; connectTimeoutMs: number; dial: NonNullable<FetcherOptions["dial"]> },
): Tunnel {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const [user, pass] = [crypto.randomUUID(), crypto.randomUUID()];
  const conns = new Set<Deno.Conn>();
  const stop = new AbortController();
  const closeAll = () => {
    for (const c of conns) {
      try {
        c.close();
      } catch { /* already closed */ }
    }
    conns.clear();
  };
  const tunnel: Tunnel = {
    proxy: {
      transport: "socks5",
      url: `socks5://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
      basicAuth: { username: user, password: pass },
    },
    connectTimedOut: false,
    close: async () => {
      stop.abort();
      try {
        listener.close();
      } catch { /* already closed */ }
      closeAll();
      await task;
    },
  };
  const dialFirst = async (): Promise<Deno.Conn | null> => {
    for (const address of addresses) {
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(), opts.connectTimeoutMs);
      try {
        const conn = await opts.dial(address, {
          port: opts.port,
          signal: AbortSignal.any([ac.signal, stop.signal]),
        });
        tunnel.connectedTo = address;
        return conn;
      } catch {
        if (ac.signal.aborted) tunnel.connectTimedOut = true;
        if (stop.signal.aborted) return null;
      } finally {
        clearTimeout(timer);
      }
    }
    return null;
  };
  const task = (async () => {
    const client = await listener.accept();
    listener.close(); // one connection per tunnel, then nobody else can knock
    conns.add(client);
    if (!(await socksHandshake(client, { user, pass }))) return;
    const upstream = await dialFirst();
    if (!upstream) return await writeAll(client, [5, 5, 0, 1, 0, 0, 0, 0, 0, 0]);
    conns.add(upstream);
    if (stop.signal.aborted) return;
    await writeAll(client, [5, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
    const pump = async (from: Deno.Conn, to: Deno.Conn, onEnd: () => Promise<void> | void) => {
      const buf = new Uint8Array(32 * 1024);
      try {
        for (let n = await from.read(buf); n !== null; n = await from.read(buf)) {
          await writeAll(to, buf.subarray(0, n));
        }
        await onEnd();
      } catch {
        closeAll();
      }
    };
    // Upstream EOF half-closes toward fetch so a close-delimited body arrives whole;
    // fetch hanging up ends everything.
    await Promise.all([
      pump(client, upstream, closeAll),
      pump(upstream, client, () => client.closeWrite()),
    ]);
  })().catch(() => {}).finally(closeAll);
  return tunnel;
}

async function resolveSystem(hostname: string): Promise<string[]> {
  const [a, aaaa] = await Promise.allSettled([
    Deno.resolveDns(hostname, "A"),
    Deno.resolveDns(hostname, "AAAA"),
  ]);
  if (a.status === "rejected" && aaaa.status === "rejected") throw a.reason;
  return [a, aaaa].flatMap((r) => r.status === "fulfilled" ? r.value : []);
}

function checkUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchRefused("bad_url", { url: raw, detail: "not a valid URL" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new FetchRefused("bad_scheme", {
      url: raw,
      detail: `scheme ${url.protocol} is not allowed`,
    });
  }
  if (url.username || url.password) {
    throw new FetchRefused("userinfo", {
      url: raw,
      detail: "credentials in the URL are not allowed",
    });
  }
  if (!url.hostname) throw new FetchRefused("bad_url", { url: raw, detail: "no host name" });
  return url;
}

function outboundHeaders(opts: FetchOptions, userAgent: string): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(opts.headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower === "authorization" && opts.allowAuthorization) headers.set(name, value);
    else if (!NEVER_SENT.has(lower)) headers.set(name, value);
  }
  headers.set("user-agent", userAgent);
  if (opts.accept?.length) headers.set("accept", opts.accept.join(", "));
  else if (!headers.has("accept")) headers.set("accept", "*/*");
  return headers;
}

async function readCapped(
  res: Response,
  { max, url }: { max: number; url: string },
): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    // Counted on decoded bytes: fetch has already inflated gzip/br, so a bomb hits the cap.
    total += r.value.length;
    if (total > max) {
      await reader.cancel().catch(() => {});
      throw new FetchRefused("too_large", { url, detail: `body exceeds ${max} bytes` });
    }
    chunks.push(r.value);
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) out.set(c, (off += c.length) - c.length);
  return out;
}

function decodeText(bytes: Uint8Array, contentType: string): string {
  const label = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1] ?? "utf-8";
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label); // latin1 and iso-8859-1 decode as windows-1252, per WHATWG
  } catch {
    decoder = new TextDecoder();
  }
  return decoder.decode(bytes);
}

type HopResult = { redirect: string; status: number } | { response: FetchedResponse };

/** Create the guarded fetcher; one per process is enough (it holds the per-host queues). */
export function createFetcher(options: FetcherOptions): GuardedFetcher {
  const defined = Object.entries(options).filter(([, v]) => v !== undefined);
  const o: Required<Omit<FetcherOptions, "caCerts">> & FetcherOptions = {
    allowLoopback: false,
    resolve: resolveSystem,
    maxRedirects: 5,
    connectTimeoutMs: 5000,
    timeoutMs: 15000,
    maxBytes: 10 * MiB,
    perHostConcurrency: 2,
    minHostIntervalMs: 250,
    maxConcurrent: 16,
    retries: 2,
    retryBaseMs: 250,
    allowedPorts: [80, 443, 8080, 8443],
    dial: (hostname: string, { port, signal }: { port: number; signal: AbortSignal }) =>
      Deno.connect({ hostname, port, signal }),
    ...(Object.fromEntries(defined) as FetcherOptions),
  };
  const global = new Gate(o.maxConcurrent);
  const hosts = new Map<string, { gate: Gate; nextStart: number }>();

  async function enterHost(host: string, signal: AbortSignal): Promise<() => void> {
    let h = hosts.get(host);
    if (!h) hosts.set(host, h = { gate: new Gate(o.perHostConcurrency), nextStart: 0 });
    const state = h;
    await state.gate.acquire(signal);
    try {
      // Reserve the next start time synchronously so concurrent callers queue up behind it.
      const now = Date.now();
      const start = Math.max(now, state.nextStart);
      state.nextStart = start + o.minHostIntervalMs;
      if (start > now) await sleep(start - now, signal);
      await global.acquire(signal);
    } catch (e) {
      state.gate.release();
      throw e;
    }
    return () => {
      global.release();
      state.gate.release();
      if (state.gate.idle && state.nextStart <= Date.now()) hosts.delete(host);
    };
  }

  async function checkedAddresses(url: URL, signal: AbortSignal): Promise<[string[], number]> {
    const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
    const portAllowed = o.allowedPorts.includes(port);
    const refusePort = () =>
      new FetchRefused("bad_port", { url: url.href, detail: `port ${port} is not allowed` });
    if (!portAllowed && !o.allowLoopback) throw refusePort();
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    const name = host.replace(/\.$/, "").toLowerCase();
    let addresses: string[];
    if (parseIp(host)) addresses = [host];
    // RFC 6761: localhost names never go to DNS, where they could be made to mean anything.
    else if (name === "localhost" || name.endsWith(".localhost")) addresses = ["127.0.0.1", "::1"];
    else {
      try {
        addresses = await raceAbort(o.resolve(name), signal);
      } catch (e) {
        if (signal.aborted) throw e;
        throw new FetchRefused("dns_failure", {
          url: url.href,
          detail: `${name} did not resolve`,
          cause: e,
        });
      }
      if (!addresses.length) {
        throw new FetchRefused("dns_failure", { url: url.href, detail: `${name} has no address` });
      }
    }
    for (const address of addresses) {
      const reason = isForbiddenAddress(address, { allowLoopback: o.allowLoopback });
      if (!reason) continue;
      const what = `${REASON_TEXT[reason] ?? reason.replace("_", " ")}`;
      const detail = addresses.length === 1 && address === host
        ? `address ${address} is ${what}`
        : `${name} resolves to ${address}, which is ${what}`;
      throw new FetchRefused("blocked_address", { url: url.href, detail, reason });
    }
    if (!portAllowed && !addresses.every(isLoopbackAddress)) throw refusePort();
    // IPv4 first: many hosts publish AAAA records they cannot actually serve.
    return [addresses.toSorted((a, b) => Number(a.includes(":")) - Number(b.includes(":"))), port];
  }

  interface Call {
    signal: AbortSignal;
    deadline: AbortSignal;
    timeoutMs: number;
    maxBytes: number;
    accept?: string[];
    startClock(): void;
  }
  type Hop = { init: RequestInit; call: Call };
  const noRetry = new WeakSet<FetchRefused>(); // failures a retry cannot fix (a bad certificate)

  function classify(e: unknown, { url, call, tunnel }: { url: URL; call: Call; tunnel?: Tunnel }) {
    if (e instanceof FetchRefused) return e;
    if (call.deadline.aborted) {
      return new FetchRefused("timeout", {
        url: url.href,
        detail: `no complete response within ${call.timeoutMs} ms`,
      });
    }
    if (call.signal.aborted) return e; // the caller's own abort, passed through unchanged
    if (tunnel?.connectTimedOut && !tunnel.connectedTo) {
      const detail = `connection timed out after ${o.connectTimeoutMs} ms`;
      return new FetchRefused("timeout", { url: url.href, detail, cause: e });
    }
    const message = e instanceof Error && e.cause instanceof Error ? e.cause.message : String(e);
    const badCert = /certificate/i.test(message);
    const detail = badCert
      ? "TLS certificate rejected"
      : tunnel?.connectedTo
      ? `connection to ${tunnel.connectedTo} failed`
      : "could not connect";
    const refusal = new FetchRefused("network", { url: url.href, detail, cause: e });
    if (badCert) noRetry.add(refusal);
    return refusal;
  }

  async function attempt(url: URL, { init, call }: Hop): Promise<HopResult> {
    let release: (() => void) | undefined;
    let tunnel: Tunnel | undefined;
    let client: Deno.HttpClient | undefined;
    try {
      release = await enterHost(url.hostname, call.signal);
      call.startClock();
      const [addresses, port] = await checkedAddresses(url, call.signal);
      tunnel = openTunnel(addresses, { ...o, port });
      client = Deno.createHttpClient({
        proxy: tunnel.proxy,
        caCerts: o.caCerts,
        poolMaxIdlePerHost: 0,
      });
      const res = await fetch(url, { ...init, client, redirect: "manual", signal: call.signal });
      const refuse = async (code: FetchRefusedCode, detail: string) => {
        await res.body?.cancel();
        return new FetchRefused(code, { url: url.href, detail, status: res.status });
      };
      const location = res.headers.get("location");
      if (REDIRECTS.has(res.status) && location) {
        await res.body?.cancel();
        return { redirect: location, status: res.status };
      }
      if (res.status < 200 || res.status > 299) {
        throw await refuse("http_status", `status ${res.status}`);
      }
      const contentType = res.headers.get("content-type") ?? "";
      const media = contentType.split(";")[0].trim().toLowerCase();
      if (call.accept?.length && !call.accept.some((p) => media.startsWith(p.toLowerCase()))) {
        const detail = `content type ${media || "(none)"} is not one of ${call.accept.join(", ")}`;
        throw await refuse("unsupported_type", detail);
      }
      const declared = Number(res.headers.get("content-length") ?? NaN);
      if (!res.headers.has("content-encoding") && declared > call.maxBytes) {
        throw await refuse(
          "too_large",
          `declared length ${declared} exceeds ${call.maxBytes} bytes`,
        );
      }
      const bytes = await readCapped(res, { max: call.maxBytes, url: url.href });
      const address = tunnel.connectedTo ?? "";
      const text = () => decodeText(bytes, contentType);
      return {
        response: {
          url: url.href,
          status: res.status,
          contentType,
          headers: res.headers,
          bytes,
          address,
          text,
        },
      };
    } catch (e) {
      throw classify(e, { url, call, tunnel });
    } finally {
      client?.close();
      await tunnel?.close();
      release?.();
    }
  }

  async function withRetries(url: URL, { init, call }: Hop): Promise<HopResult> {
    for (let n = 0;; n++) {
      try {
        return await attempt(url, { init, call });
      } catch (e) {
        const retryable = e instanceof FetchRefused && !noRetry.has(e) && !call.deadline.aborted &&
          (e.code === "network" || e.code === "timeout" || (e.status ?? 0) >= 500);
        if (!retryable || n >= o.retries) throw e;
        try {
          await sleep(o.retryBaseMs * 2 ** n * (1 + Math.random()), call.signal);
        } catch (abort) {
          throw classify(abort, { url, call });
        }
      }
    }
  }

  return {
    async fetch(rawUrl: string, opts: FetchOptions = {}): Promise<FetchedResponse> {
      const timeoutMs = opts.timeoutMs ?? o.timeoutMs;
      const ctl = new AbortController();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const call: Call = {
        deadline: ctl.signal,
        signal: opts.signal ? AbortSignal.any([ctl.signal, opts.signal]) : ctl.signal,
        timeoutMs,
        maxBytes: opts.maxBytes ?? o.maxBytes,
        accept: opts.accept,
        // The clock starts once the first hop holds its slots, so queueing is not a timeout.
        startClock: () => void (timer ??= setTimeout(() => ctl.abort(), timeoutMs)),
      };
      const headers = outboundHeaders(opts, o.userAgent);
      let method = opts.method ?? "GET";
      let body = opts.body;
      let url = checkUrl(rawUrl);
      const origin = url.origin;
      try {
        for (let hop = 0;; hop++) {
          const result = await withRetries(url, { init: { method, headers, body }, call });
          if ("response" in result) return result.response;
          let next: URL;
          try {
            next = new URL(result.redirect, url);
          } catch {
            throw new FetchRefused("bad_url", {
              url: result.redirect,
              detail: "redirect target is not a valid URL",
            });
          }
          if (hop >= o.maxRedirects) {
            throw new FetchRefused("too_many_redirects", {
              url: next.href,
              detail: `more than ${o.maxRedirects} redirects`,
            });
          }
          url = checkUrl(next.href);
          if (result.status === 303 || (method === "POST" && result.status <= 302)) {
            [method, body] = ["GET", undefined];
            headers.delete("content-type");
          }
          // A provider key belongs to the origin it was issued for, never to a redirect target.
          if (url.origin !== origin) headers.delete("authorization");
        }
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
