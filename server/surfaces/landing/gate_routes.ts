/**
 * The forward-authentication endpoints of the crawler gate (docs/decisions/crawler-gate.md),
 * mounted at `/api/gate` on every host. A proxy in front of the publisher's own site asks them
 * about each request before passing it to the origin:
 * - `/v1/forward-auth` (Caddy `forward_auth`, Traefik `ForwardAuth`): a 2xx allows; any other
 *   answer is sent to the client as it is (402 with `crawler-price`, 403, 400 ...).
 * - `/v1/nginx` (`auth_request`): nginx takes only 2xx, 401 and 403 from the subrequest, so every
 *   refusal is a bodiless 401 carrying the real status in `Folio-Status`, the sentence in
 *   `Folio-Message` and the dialect's headers; the documented `error_page 401` location answers
 *   the client with them.
 * The original request is rebuilt from `X-Forwarded-Method/Host/Uri/Proto` (or nginx's
 * `X-Original-Method/URI`) and the client's own headers, which the proxies pass on.
 */
import { type Context, Hono } from "hono";
import { findPublisherByDomain, normaliseHost } from "../../../store/publishers.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { AppError } from "../../platform/errors.ts";
import { gateApp, gateEnv, gateRequest } from "./gate.ts";

/** Headers that describe the hop to Folio, not the client's request (RFC 9110 section 7.6.1). */
const HOP = [
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "content-length",
];

/** The refusal headers nginx copies to the client with `auth_request_set`. */
const PASSED = [
  "crawler-price",
  "crawler-error",
  "link",
  "www-authenticate",
  "retry-after",
  "payment-required",
];

/** The gate's routes, mounted by the root at `/api/gate` on every host. */
export function gateRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const nginx = gateApp(deps, "_gate:nginx");
  const forwardAuth = gateApp(deps, "_gate:forward_auth");
  // GET is what Caddy and Traefik send (and what the OpenAPI document names); nginx's subrequest
  // may carry the client's method: any method is answered alike.
  const decideForwardAuth = async (c: Context<AppEnv>) => {
    const original = await originalOf(deps, c.req.raw, c.env, c.get("requestId"));
    return await forwardAuth.fetch(original.request, original.env);
  };
  app.get("/v1/forward-auth", decideForwardAuth);
  app.all("/v1/forward-auth", decideForwardAuth);
  const decideNginx = async (c: Context<AppEnv>) => {
    const original = await originalOf(deps, c.req.raw, c.env, c.get("requestId"));
    const res = await nginx.fetch(original.request, original.env);
    if (res.ok) return res;
    const headers = new Headers({
      "folio-status": String(res.status),
      "folio-message": oneLine(await res.text()),
      "cache-control": "no-store",
    });
    for (const name of PASSED) {
      const value = res.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    return new Response(null, { status: 401, headers });
  };
  app.get("/v1/nginx", decideNginx);
  app.all("/v1/nginx", decideNginx);
  return app;
}

/** A header value nginx can put in a body: one line of printable ASCII. */
function oneLine(text: string): string {
  return text.replace(/[^\x20-\x7e]+/g, " ").trim().slice(0, 1000);
}

/** The client's request as the proxy received it, and the env the gate runs it with. */
async function originalOf(deps: AppDeps, req: Request, env: unknown, requestId: string) {
  const h = req.headers;
  const first = (name: string) => h.get(name)?.split(",")[0].trim() || null;
  const method = (first("x-forwarded-method") ?? first("x-original-method") ?? "GET")
    .toUpperCase();
  const host = first("x-forwarded-host") ?? first("x-original-host");
  const uri = h.get("x-forwarded-uri") ?? h.get("x-original-uri");
  const proto = (first("x-forwarded-proto") ?? "https").toLowerCase();
  if (!host) throw bad("X-Forwarded-Host", "the client's Host is required");
  if (!uri || !uri.startsWith("/")) {
    throw bad(
      "X-Forwarded-Uri",
      "the client's request target (a path starting with /) is required",
    );
  }
  if (proto !== "http" && proto !== "https") throw bad("X-Forwarded-Proto", "http or https");
  if (!/^[A-Z]{1,16}$/.test(method)) throw bad("X-Forwarded-Method", "an HTTP method");
  let url: URL;
  try {
    url = new URL(`${proto}://${host}${uri}`);
  } catch {
    throw bad("X-Forwarded-Host", `${proto}://${host}${uri} is not a URL`);
  }
  const publisher = await findPublisherByDomain(deps.store.db, normaliseHost(url.host));
  if (!publisher) {
    throw new AppError(
      404,
      "unknown_publisher",
      `No publisher has verified the domain ${url.hostname}.`,
      {},
      "X-Forwarded-Host",
    );
  }
  const headers = new Headers();
  for (const [name, value] of h) {
    if (HOP.includes(name) || /^x-(forwarded|original)-/.test(name)) continue;
    headers.set(name, value);
  }
  headers.set("host", url.host);
  const request = gateRequest(url, method, headers);
  return {
    request,
    env: gateEnv({
      publisher,
      requestId,
      remoteAddr: clientOf(h) ?? (env as { remoteAddr?: Deno.Addr } | undefined)?.remoteAddr,
    }),
  };
}

/** The client's address the proxy saw: X-Real-IP, else the last X-Forwarded-For hop. */
function clientOf(h: Headers): Deno.NetAddr | undefined {
  const hop = h.get("x-real-ip")?.trim() || h.get("x-forwarded-for")?.split(",").pop()?.trim();
  return hop ? { transport: "tcp", hostname: hop, port: 0 } : undefined;
}

function bad(param: string, want: string): AppError {
  return new AppError(400, "invalid_request", `${param}: ${want}.`, {}, param);
}
