/**
 * Reverse-proxy mode (issue 33; docs/decisions/crawler-gate.md): a publisher with no proxy of its
 * own points its domain at Folio and names its origin (`originUrl`). Every request the crawler gate
 * admits (gate.ts) is forwarded to the origin and its answer streamed back: status, body and
 * caching headers as the origin sent them, hop-by-hop headers dropped both ways (RFC 9110
 * section 7.6.1), redirects passed to the client rather than followed, so Folio only ever
 * connects to the configured origin. The origin's addresses are checked on every request by the
 * guarded fetcher's rules (server/domain/catalog/ip_ranges.ts): public addresses only, loopback
 * when the operator allows it (FOLIO_FETCH_ALLOW_LOOPBACK); any port, the configured one.
 */
import type { Context } from "hono";
import type { AppDeps } from "../../deps.ts";
import type { PublishedEnv } from "../../platform/envelope.ts";
import { isForbiddenAddress, parseIp } from "../../domain/catalog/ip_ranges.ts";
import { CHARGED, gateApp, gateEnv } from "./gate.ts";
import { clientAddress } from "../../platform/throttle.ts";

/** Hop-by-hop fields (RFC 9110 section 7.6.1), plus those the Connection header names. */
const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];

/** Content codings Deno's fetch decodes on receipt. */
const DECODED = new Set(["gzip", "x-gzip", "br", "deflate"]);

/** How long the origin has to start answering (the body then streams as long as it takes). */
const HEADERS_TIMEOUT_MS = 30_000;

/** Paths Folio keeps answering on a proxied domain: the RSL license and the NLWeb endpoint. */
export function folioKeeps(path: string): boolean {
  return path === "/license.xml" || path === "/ask";
}

/** The reverse proxy for the site app: gate, then forward. */
export function originProxy(deps: AppDeps) {
  const gate = gateApp(deps, "_proxy:origin");
  const clients = new Map<string, Deno.HttpClient>();
  return async (c: Context<PublishedEnv>): Promise<Response> => {
    const publisher = c.get("publisher");
    const decided = await gate.fetch(
      c.req.raw,
      gateEnv({ publisher, requestId: c.get("requestId"), remoteAddr: remoteOf(c) }),
    );
    if (!decided.ok) return decided;
    const origin = new URL(publisher.originUrl!);
    const address = await checkedAddress(deps, origin);
    if (typeof address !== "string") return unavailable(address.why);
    return await forward(c, origin, address, decided.headers.get(CHARGED), clients);
  };
}

function remoteOf(c: Context<PublishedEnv>): Deno.Addr | undefined {
  return (c.env as { remoteAddr?: Deno.Addr } | undefined)?.remoteAddr;
}

/** The origin's first address that the guarded fetcher's rules admit, or why none is. */
async function checkedAddress(deps: AppDeps, origin: URL): Promise<string | { why: string }> {
  const host = origin.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: string[];
  if (parseIp(host)) addresses = [host];
  // RFC 6761: localhost names never go to DNS.
  else if (host === "localhost" || host.endsWith(".localhost")) addresses = ["127.0.0.1"];
  else {
    try {
      const [v4, v6] = await Promise.all([
        Deno.resolveDns(host, "A").catch(() => [] as string[]),
        Deno.resolveDns(host, "AAAA").catch(() => [] as string[]),
      ]);
      addresses = [...v4, ...v6];
    } catch {
      addresses = [];
    }
  }
  if (!addresses.length) return { why: `${host} does not resolve` };
  const allowLoopback = deps.config.fetchAllowLoopback;
  const refused = addresses.find((a) => isForbiddenAddress(a, { allowLoopback }));
  if (refused) return { why: `${host} resolves to ${refused}, which Folio does not connect to` };
  return addresses[0];
}

function unavailable(why: string): Response {
  return new Response(`The publisher's origin cannot be reached: ${why}.\n`, {
    status: 502,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}

/** The fields a message's Connection header names, with the fixed hop-by-hop list. */
function hopFields(headers: Headers): Set<string> {
  const named = (headers.get("connection") ?? "").split(",").map((s) => s.trim().toLowerCase());
  return new Set([...HOP_BY_HOP, ...named.filter(Boolean)]);
}

async function forward(
  c: Context<PublishedEnv>,
  origin: URL,
  address: string,
  charged: string | null,
  clients: Map<string, Deno.HttpClient>,
): Promise<Response> {
  const req = c.req.raw;
  const asked = new URL(req.url);
  const headers = new Headers();
  const hop = hopFields(req.headers);
  for (const [name, value] of req.headers) if (!hop.has(name)) headers.append(name, value);
  const client = clientAddress(c);
  const prior = req.headers.get("x-forwarded-for");
  headers.set("x-forwarded-for", prior ? `${prior}, ${client}` : client);
  headers.set("x-forwarded-host", asked.host);
  headers.set("x-forwarded-proto", asked.protocol.replace(":", ""));
  const init: RequestInit & { client?: Deno.HttpClient } = {
    method: req.method,
    headers,
    body: req.method === "GET" || req.method === "HEAD" ? undefined : req.body,
    redirect: "manual",
  };
  let target: URL;
  if (origin.protocol === "http:") {
    // The checked address as an HTTP proxy: the origin gets the client's Host (absolute-form,
    // RFC 9112 section 3.2.2) and Folio connects to no other address than the one it checked.
    const port = Number(origin.port || 80);
    const key = `${address}:${port}`;
    let pinned = clients.get(key);
    if (!pinned) {
      pinned = Deno.createHttpClient({ proxy: { transport: "tcp", hostname: address, port } });
      clients.set(key, pinned);
    }
    init.client = pinned;
    target = new URL(`${asked.pathname}${asked.search}`, `http://${asked.host}`);
  } else {
    // TLS names the origin: it is asked by its own name, the client's host in X-Forwarded-Host.
    target = new URL(`${asked.pathname}${asked.search}`, origin);
  }
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), HEADERS_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(target, { ...init, signal: timer.signal });
  } catch {
    return unavailable("it did not answer");
  } finally {
    clearTimeout(timeout);
  }
  const out = new Headers();
  const back = hopFields(res.headers);
  // fetch decodes these codings itself: the body sent on is the decoded one.
  if (DECODED.has(res.headers.get("content-encoding")?.trim().toLowerCase() ?? "")) {
    back.add("content-encoding").add("content-length");
  }
  for (const [name, value] of res.headers) if (!back.has(name)) out.append(name, value);
  if (charged) out.set(CHARGED, charged);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers: out });
}
