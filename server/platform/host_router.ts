/**
 * Which app answers a request, decided once from its Host before any route matches
 * (docs/decisions/landing-and-crawlers.md "Host dispatch"). The root app's routes are two
 * disjoint trees: the platform's at their own paths, the publisher's site under `SITE`;
 * `routedPath()` puts a request in one of them, so the order of mounts decides nothing.
 */
import { Hono } from "hono";
import { getPath, mergePath } from "hono/utils/url";
import { findPublisherByDomain, normaliseHost, type Publisher } from "../../store/publishers.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { errorBody } from "./errors.ts";

/** Who answers: the platform (its APIs, pages and 404), or a publisher's site. */
export type HostAnswer = { app: "platform" } | { app: "site"; publisher: Publisher };

/** Where the site's routes live in the root router (a platform request naming it gets a 404). */
export const SITE = "/~site";

/**
 * What the router hands the root app as Hono's env: the peer address from Deno's serve info
 * (server/platform/throttle.ts reads it) and the answer. The address is copied, not the info
 * spread: its fields are getters only Deno's own object answers.
 */
interface Routed {
  remoteAddr: Deno.Addr | undefined;
  folioHost: HostAnswer;
}

/** A sub-app and the prefix it is mounted at (its own env may narrow the root's). */
export type Mounted = readonly [
  prefix: string,
  app: { routes: { method: string; path: string }[] },
];

/** Whether the agent APIs answer a method and path themselves, on any host. */
export type Claims = (method: string, path: string) => boolean;

/**
 * The dispatch, in order of precedence:
 * 1. a method and path one of the `everyHost` apps routes (the agent APIs and their discovery
 *    documents) is the platform's on every host: each finds its publisher itself
 *    (`publisherFrom()`), by Host or by id;
 * 2. any other path on a publisher's verified custom domain is its site;
 * 3. everything else, the platform's own host and hosts no publisher holds, is the platform's.
 */
export async function answerFor(
  deps: Pick<AppDeps, "config" | "store">,
  req: Request,
  everyHost: Claims,
): Promise<HostAnswer> {
  if (everyHost(req.method, getPath(req))) return { app: "platform" };
  const url = new URL(req.url);
  const host = normaliseHost(req.headers.get("host") ?? url.host);
  if (host === normaliseHost(new URL(deps.config.baseUrl).host)) return { app: "platform" };
  const publisher = await findPublisherByDomain(deps.store.db, host);
  return publisher ? { app: "site", publisher } : { app: "platform" };
}

/**
 * 400 for a request whose Host names no valid host (an invalid punycode label such as
 * `xn--zz.localhost` fails the URL parser's IDNA step): no route can read its URL, and nothing
 * about it is the server's fault. Null when the Host is fine.
 */
export function badHost(req: Request): Response | null {
  let ok: boolean;
  try {
    ok = URL.canParse(req.url);
  } catch {
    ok = false;
  }
  if (ok) return null;
  return Response.json(
    errorBody("invalid_request", "Host: is not a valid host name", "host"),
    { status: 400, headers: { "cache-control": "no-store" } },
  );
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * What the apps mounted at these prefixes claim: their routes, but not the middleware they run
 * under a wildcard (`use()`), which answers only on the way to a route. A CORS preflight
 * (OPTIONS) is claimed where any method is routed, a HEAD where GET is.
 */
export function claimsOf(mounts: readonly Mounted[]): Claims {
  const routes = new Hono<AppEnv>();
  for (const [prefix, app] of mounts) {
    for (const r of app.routes) {
      if (r.method === "ALL" && r.path.endsWith("*")) continue;
      const path = mergePath(prefix, r.path);
      routes.on(r.method === "ALL" ? METHODS : [r.method], path, (c) => c.body(null));
    }
  }
  const routed = (method: string, path: string) => routes.router.match(method, path)[0].length > 0;
  return (method, path) => {
    if (method === "OPTIONS") return METHODS.some((m) => routed(m, path));
    return routed(method === "HEAD" ? "GET" : method, path);
  };
}

/** The env the root app is fetched with, from the caller's (Deno's serve info) and the answer. */
export function routed(env: unknown, answer: HostAnswer): Routed {
  return { remoteAddr: (env as Partial<Routed> | undefined)?.remoteAddr, folioHost: answer };
}

/** The answer `routed()` put in the env; the platform's when there is none. */
export function answerOf(env: unknown): HostAnswer {
  return (env as Partial<Routed> | undefined)?.folioHost ?? { app: "platform" };
}

/**
 * The path the root router matches (Hono's `getPath`): a site's requests under `SITE`. A platform
 * request for a path under `SITE` reaches the site's tree but finds no publisher there, and is
 * answered the platform's 404 (server/surfaces/landing/routes.ts).
 */
export function routedPath(req: Request, options?: { env?: unknown }): string {
  const path = getPath(req);
  if (answerOf(options?.env).app !== "site") return path;
  // Hono mounts a sub-app's "/" at the bare prefix.
  return path === "/" ? SITE : `${SITE}${path}`;
}
