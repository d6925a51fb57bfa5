/**
 * The one guarded fetcher for every server-side request (source pages, robots.txt, embeddings,
 * sponsor tools): http(s) only, addresses checked after DNS and on every redirect, connections
 * pinned to the checked address, time and size limits enforced while streaming.
 *
 * Pinning: each attempt opens a one-shot SOCKS5 tunnel (socks_tunnel.ts) that dials only the
 * checked addresses, so the connection cannot be rebound by a second DNS lookup.
 */
import { systemTimer, type Timer } from "../../platform/clock.ts";
import { raceAbort } from "./abortable.ts";
import { type BodySink, decodeText, readCapped } from "./fetcher_body.ts";
import { createHostSlots, type HostSlot } from "./host_slots.ts";
import {
  type ForbiddenReason,
  isForbiddenAddress,
  isLoopbackAddress,
  parseIp,
} from "./ip_ranges.ts";
import { openTunnel, type Tunnel } from "./socks_tunnel.ts";

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
  /** The refusal without the URL, e.g. "example.invalid did not resolve". */
  readonly detail: string;
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
    this.detail = safeText(detail);
    this.status = extra.status;
    this.reason = extra.reason;
  }
}

/** Settings shared by every request made through one fetcher. */
export interface FetcherOptions {
  userAgent: string;
  /** Test and local-origin switch: opens 127.0.0.0/8 and ::1 only, on any port. */
  allowLoopback?: boolean;
  /**
   * With `allowLoopback`: loopback origins (IP literals and localhost names) skip the per-host
   * spacing and take up to `maxConcurrent` requests at once. Politeness protects other people's
   * servers; an origin on this machine is the operator's own, and a DNS name never gets this.
   */
  loopbackUnthrottled?: boolean;
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
  /** What per-host spacing and retry backoff wait on (default the system's); tests step one. */
  timer?: Timer;
  /** Opens the TCP connection to a checked address; injectable so tests can stand in a network. */
  dial?: (address: string, opts: { port: number; signal: AbortSignal }) => Promise<Deno.Conn>;
}

/** Per-request settings. */
export interface FetchOptions {
  /** Allowed content-type prefixes; anything else is refused before the body is read. */
  accept?: string[];
  maxBytes?: number;
  /** Keep the first maxBytes of a longer body instead of refusing it (robots.txt). */
  truncate?: boolean;
  timeoutMs?: number;
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  /** Forward an Authorization header (the embeddings provider key), to the first origin only. */
  allowAuthorization?: boolean;
  /** Answer any final status instead of refusing a non-2xx one (webhook deliveries log it). */
  anyStatus?: boolean;
  signal?: AbortSignal;
  /**
   * Stream the final response's body to a consumer made for it (one per attempt) instead of
   * buffering it: `bytes` is then empty. The byte cap and the deadline still apply.
   */
  sink?: (res: { url: string; contentType: string }) => BodySink;
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

/** What `open()` takes beyond the request. */
export interface OpenOptions {
  /**
   * The server to connect to when it is not the URL's: its addresses are checked and reached,
   * while the request keeps the URL's Host (over http; a reverse proxy's origin).
   */
  connectTo?: string;
  /** Any port: the operator configured this server, port and all. */
  anyPort?: boolean;
  /** How long the server has to start answering; the body then streams as long as it takes. */
  headersTimeoutMs?: number;
}

/** The fetcher every server-side request goes through. */
export interface GuardedFetcher {
  fetch(url: string, opts?: FetchOptions): Promise<FetchedResponse>;
  /**
   * One request to a checked address, answered as the server sent it: not followed (a redirect
   * is the answer), not buffered (the body streams), any status. For the reverse proxy.
   */
  open(url: string, init: RequestInit, opts?: OpenOptions): Promise<Response>;
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

/** How long fetch may take to connect to its own loopback tunnel before the attempt is redone. */
const PROXY_ACCEPT_MS = 1000;
const MAX_PROXY_STALLS = 3;
/** Thrown by an attempt whose fetch never connected to its tunnel (see attempt()). */
const PROXY_STALL = new Error("fetch never connected to its tunnel");

type HopResult = { redirect: string; status: number } | { response: FetchedResponse };

/** Create the guarded fetcher; one per process is enough (it holds the per-host queues). */
export function createFetcher(options: FetcherOptions): GuardedFetcher {
  const defined = Object.entries(options).filter(([, v]) => v !== undefined);
  const o: Required<Omit<FetcherOptions, "caCerts">> & FetcherOptions = {
    allowLoopback: false,
    loopbackUnthrottled: false,
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
    timer: systemTimer,
    dial: (hostname: string, { port, signal }: { port: number; signal: AbortSignal }) =>
      Deno.connect({ hostname, port, signal }),
    ...(Object.fromEntries(defined) as FetcherOptions),
  };
  const slots = createHostSlots(o);
  const loopbackSlots = createHostSlots({
    perHostConcurrency: o.maxConcurrent,
    minHostIntervalMs: 0,
    maxConcurrent: o.maxConcurrent,
    timer: o.timer,
  });
  const slotsFor = (url: URL) =>
    o.allowLoopback && o.loopbackUnthrottled && isLoopbackName(url.hostname)
      ? loopbackSlots
      : slots;

  const directLiterals = options.dial === undefined;
  let shared: Deno.HttpClient | undefined;
  /** The client of IP-literal origins: one, its connections kept between pages. */
  const directClient = () => shared ??= Deno.createHttpClient({ caCerts: o.caCerts });

  async function checkedAddresses(
    url: URL,
    signal: AbortSignal,
    anyPort = false,
  ): Promise<[string[], number]> {
    const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
    const portAllowed = anyPort || o.allowedPorts.includes(port);
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
    truncate: boolean;
    accept?: string[];
    anyStatus: boolean;
    sink?: FetchOptions["sink"];
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

  /**
   * Deno 2.9.6's fetch sometimes never connects to its SOCKS5 proxy (about 4% of fetches here,
   * sequential or not; a direct fetch never stalls), and then waits for the whole deadline. Nothing
   * has reached the origin then, so such an attempt is abandoned after PROXY_ACCEPT_MS and made
   * again with a fresh tunnel and client, at most MAX_PROXY_STALLS times (a machine so loaded that
   * a loopback connect takes that long then gets the plain deadline).
   */
  async function attempt(url: URL, { init, call }: Hop, watchStall: boolean): Promise<HopResult> {
    let tunnel: Tunnel | undefined;
    let client: Deno.HttpClient | undefined;
    const stalled = new AbortController();
    let watch: ReturnType<typeof setTimeout> | undefined;
    try {
      const [addresses, port] = await checkedAddresses(url, call.signal);
      // An IP literal has no name to rebind: the address checked is the one fetch dials, so it
      // needs no tunnel and keeps its connections (issue 39: the tunnel and client per attempt
      // were 8-10% of ingestion's CPU). A test's stand-in network (`dial`) keeps the tunnel.
      const direct = directLiterals && addresses.length === 1 && addresses[0] === bareHost(url);
      if (!direct) {
        tunnel = openTunnel(addresses, { ...o, port });
        client = Deno.createHttpClient({
          proxy: tunnel.proxy,
          caCerts: o.caCerts,
          poolMaxIdlePerHost: 0,
        });
      } else client = directClient();
      if (watchStall && tunnel) {
        watch = setTimeout(() => stalled.abort(), PROXY_ACCEPT_MS);
        tunnel.accepted.then(() => clearTimeout(watch));
      }
      const signal = watchStall && tunnel
        ? AbortSignal.any([call.signal, stalled.signal])
        : call.signal;
      const res = await fetch(url, { ...init, client, redirect: "manual", signal });
      const refuse = async (code: FetchRefusedCode, detail: string) => {
        await res.body?.cancel();
        return new FetchRefused(code, { url: url.href, detail, status: res.status });
      };
      const location = res.headers.get("location");
      if (REDIRECTS.has(res.status) && location) {
        await res.body?.cancel();
        return { redirect: location, status: res.status };
      }
      if (!call.anyStatus && (res.status < 200 || res.status > 299)) {
        throw await refuse("http_status", `status ${res.status}`);
      }
      const contentType = res.headers.get("content-type") ?? "";
      const media = contentType.split(";")[0].trim().toLowerCase();
      if (call.accept?.length && !call.accept.some((p) => media.startsWith(p.toLowerCase()))) {
        const detail = `content type ${media || "(none)"} is not one of ${call.accept.join(", ")}`;
        throw await refuse("unsupported_type", detail);
      }
      const declared = Number(res.headers.get("content-length") ?? NaN);
      if (!call.truncate && !res.headers.has("content-encoding") && declared > call.maxBytes) {
        throw await refuse(
          "too_large",
          `declared length ${declared} exceeds ${call.maxBytes} bytes`,
        );
      }
      const sink = call.sink?.({ url: url.href, contentType });
      const bytes = await readCapped(res, call.maxBytes, call.truncate, sink);
      if (!bytes) {
        throw new FetchRefused("too_large", {
          url: url.href,
          detail: `body exceeds ${call.maxBytes} bytes`,
        });
      }
      const address = tunnel ? tunnel.connectedTo ?? "" : addresses[0];
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
      if (stalled.signal.aborted && !call.signal.aborted) throw PROXY_STALL;
      throw classify(e, { url, call, tunnel });
    } finally {
      clearTimeout(watch);
      if (tunnel) {
        client?.close();
        await tunnel.close();
      }
    }
  }

  // Retries keep the hop's slot: queueing again behind other pages would spend the running
  // deadline and report a retryable 5xx as a timeout. They still wait for the host's spacing.
  async function withRetries(url: URL, { init, call }: Hop): Promise<HopResult> {
    let slot: HostSlot;
    try {
      slot = await slotsFor(url).enter(url.hostname, call.signal);
    } catch (e) {
      throw classify(e, { url, call });
    }
    try {
      call.startClock();
      let stalls = 0;
      for (let n = 0;; n++) {
        try {
          return await attempt(url, { init, call }, stalls < MAX_PROXY_STALLS);
        } catch (e) {
          if (e === PROXY_STALL) {
            stalls++;
            n--; // not a retry: the request never left this process
            continue;
          }
          const retryable = e instanceof FetchRefused && !noRetry.has(e) &&
            !call.deadline.aborted &&
            (e.code === "network" || e.code === "timeout" || (e.status ?? 0) >= 500);
          if (!retryable || n >= o.retries) throw e;
          try {
            await o.timer.sleep(o.retryBaseMs * 2 ** n * (1 + Math.random()), call.signal);
            await slot.space(call.signal);
          } catch (abort) {
            throw classify(abort, { url, call });
          }
        }
      }
    } finally {
      slot.release();
    }
  }

  async function open(rawUrl: string, init: RequestInit, opts: OpenOptions = {}) {
    const url = checkUrl(rawUrl);
    const server = opts.connectTo ? checkUrl(opts.connectTo) : url;
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), opts.headersTimeoutMs ?? o.timeoutMs);
    let tunnel: Tunnel | undefined;
    let client: Deno.HttpClient | undefined;
    const done = async () => {
      client?.close();
      await tunnel?.close();
    };
    try {
      const [addresses, port] = await checkedAddresses(server, ctl.signal, opts.anyPort);
      tunnel = openTunnel(addresses, { ...o, port });
      client = Deno.createHttpClient({ proxy: tunnel.proxy, caCerts: o.caCerts });
      const res = await fetch(url, { ...init, client, redirect: "manual", signal: ctl.signal });
      clearTimeout(timer);
      const source = res.body;
      if (!source) {
        await done();
        return res;
      }
      // The tunnel lives as long as the body: closed at its end or when the reader cancels.
      const reader = source.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(ctl) {
          try {
            const { done: end, value } = await reader.read();
            if (end) {
              ctl.close();
              await done();
            } else ctl.enqueue(value);
          } catch (e) {
            ctl.error(e);
            await done();
          }
        },
        async cancel(why) {
          await reader.cancel(why).catch(() => {});
          await done();
        },
      });
      return new Response(body, {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    } catch (e) {
      clearTimeout(timer);
      await done();
      if (e instanceof FetchRefused) throw e;
      throw new FetchRefused(ctl.signal.aborted ? "timeout" : "network", {
        url: url.href,
        detail: ctl.signal.aborted ? "no answer in time" : "could not connect",
        cause: e,
      });
    }
  }

  return {
    open,
    async fetch(rawUrl: string, opts: FetchOptions = {}): Promise<FetchedResponse> {
      const timeoutMs = opts.timeoutMs ?? o.timeoutMs;
      const ctl = new AbortController();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const call: Call = {
        deadline: ctl.signal,
        signal: opts.signal ? AbortSignal.any([ctl.signal, opts.signal]) : ctl.signal,
        timeoutMs,
        maxBytes: opts.maxBytes ?? o.maxBytes,
        truncate: opts.truncate ?? false,
        accept: opts.accept,
        anyStatus: opts.anyStatus ?? false,
        sink: opts.sink,
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

/** The URL's host without IPv6 brackets. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** An IP literal in 127.0.0.0/8 or ::1, or a localhost name (RFC 6761: never resolved by DNS). */
function isLoopbackName(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || isLoopbackAddress(host);
}
