/**
 * Reverse-proxy mode (issue 33; docs/decisions/crawler-gate.md): a publisher with no proxy of its
 * own points its domain at Folio and names its origin (`originUrl`). Every request the crawler gate
 * admits (gate.ts) is forwarded to the origin and its answer streamed back: status, body and
 * caching headers as the origin sent them, hop-by-hop headers dropped both ways (RFC 9110
 * section 7.6.1), redirects passed to the client rather than followed, so Folio only ever
 * connects to the configured origin. The guarded fetcher's `open()` makes the request: the
 * origin's addresses are checked after DNS on every request and the connection pinned to them
 * (public addresses only, loopback when the operator allows it: FOLIO_FETCH_ALLOW_LOOPBACK), on
 * any port (the configured one).
 */
import type { Context } from "hono";
import type { AppDeps } from "../../deps.ts";
import type { PublishedEnv } from "../../platform/envelope.ts";
import { FetchRefused } from "../../domain/catalog/fetcher.ts";
import { CHARGED, FOLIO_KEY, gateApp, gateEnv, gateRequest, RECEIPT } from "./gate.ts";
import { PAYMENT_RESPONSE } from "../../domain/x402/load.ts";
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
  return async (c: Context<PublishedEnv>): Promise<Response> => {
    const publisher = c.get("publisher");
    const remoteAddr = (c.env as { remoteAddr?: Deno.Addr } | undefined)?.remoteAddr;
    const decided = await gate.fetch(
      gateRequest(c.req.url, c.req.method, c.req.raw.headers),
      gateEnv({ publisher, requestId: c.get("requestId"), remoteAddr }),
    );
    if (!decided.ok) return decided;
    return await forward(deps, c, new URL(publisher.originUrl!), {
      charged: decided.headers.get(CHARGED),
      receipt: decided.headers.get(RECEIPT),
      // An x402 read's settlement (docs/decisions/x402.md).
      payment: decided.headers.get(PAYMENT_RESPONSE),
    });
  };
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
  deps: AppDeps,
  c: Context<PublishedEnv>,
  origin: URL,
  paid: { charged: string | null; receipt: string | null; payment: string | null },
): Promise<Response> {
  const req = c.req.raw;
  const asked = new URL(req.url);
  const headers = new Headers();
  const hop = hopFields(req.headers);
  for (const [name, value] of req.headers) if (!hop.has(name)) headers.append(name, value);
  // A buyer's Folio key pays Folio: it is not the origin's to see.
  if (FOLIO_KEY.test(headers.get("authorization") ?? "")) headers.delete("authorization");
  const client = clientAddress(c);
  const prior = req.headers.get("x-forwarded-for");
  headers.set("x-forwarded-for", prior ? `${prior}, ${client}` : client);
  headers.set("x-forwarded-host", asked.host);
  headers.set("x-forwarded-proto", asked.protocol.replace(":", ""));
  // A proxy names itself in Via, both ways (RFC 9110 section 7.6.3).
  headers.append("via", "1.1 folio");
  const path = `${asked.pathname}${asked.search}`;
  // Over http the origin is asked for the client's Host; TLS names the origin, which is then
  // asked by its own name (the client's host in X-Forwarded-Host).
  const target = origin.protocol === "http:"
    ? new URL(path, `http://${asked.host}`)
    : new URL(path, origin);
  let res: Response;
  try {
    res = await deps.fetcher.open(target.href, {
      method: req.method,
      headers,
      body: req.method === "GET" || req.method === "HEAD" ? undefined : req.body,
    }, { connectTo: origin.href, anyPort: true, headersTimeoutMs: HEADERS_TIMEOUT_MS });
  } catch (e) {
    return unavailable(e instanceof FetchRefused ? e.detail : "it did not answer");
  }
  const out = new Headers();
  const back = hopFields(res.headers);
  // fetch decodes these codings itself: the body sent on is the decoded one.
  if (DECODED.has(res.headers.get("content-encoding")?.trim().toLowerCase() ?? "")) {
    back.add("content-encoding").add("content-length");
  }
  for (const [name, value] of res.headers) if (!back.has(name)) out.append(name, value);
  if (paid.charged) out.set(CHARGED, paid.charged);
  if (paid.receipt) out.set(RECEIPT, paid.receipt);
  if (paid.payment) out.set(PAYMENT_RESPONSE, paid.payment);
  out.append("via", "1.1 folio");
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers: out });
}
