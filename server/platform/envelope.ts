/**
 * The request envelope of the agent surfaces (REST, MCP, A2A, and the publisher pages to come):
 * middleware that writes the call-log entry once a request is answered, puts the publisher, the
 * credential and the meter identity on `c.var`, refuses what the reach gate refuses, and limits
 * the body. A surface composes these in its order and words every `Refused` in its own protocol
 * from its sub-app's `onError`, so who may reach what is decided once (server/domain/licensing/reach.ts).
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { findPublisherByDomain, getPublisher, type Publisher } from "../../store/publishers.ts";
import type { CallStatus, Surface } from "../../store/vocabulary.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { keyInUrl, presentation, territoryOf, verifyCredential } from "./identity.ts";
import { reach, type ReachSurface, type Refusal } from "../domain/licensing/reach.ts";
import { isProbeRequest, PROBE_HEADER } from "../domain/status/probes.ts";
import { annotateRequest, meters } from "./telemetry.ts";
import { hostOf } from "./middleware.ts";
import type { Caller } from "../domain/reads/requester.ts";
import { callScope, inCallScope } from "./call_scope.ts";
import { LicenseTokenError } from "../domain/rsl/license_tokens.ts";

/** Why the envelope refused a request, for the surface to word. */
export type EnvelopeRefusal =
  | { kind: "unknown_publisher"; via: "host" | "param"; host: string }
  | { kind: "key_in_url" }
  | { kind: "unreachable"; why: Refusal; publisher: Publisher }
  | { kind: "bad_credential"; publisher: Publisher }
  /** An RSL license token refused (docs/decisions/rsl.md): the protocol's error and why. */
  | { kind: "bad_license"; publisher: Publisher; license: LicenseTokenError }
  | { kind: "body_too_large"; limit: number };

/** A refusal thrown by the envelope; surfaces translate it in their `onError`. */
export class Refused extends Error {
  override name = "Refused";
  constructor(readonly refusal: EnvelopeRefusal) {
    super(refusal.kind);
  }
}

/** What the call log writes for a request; while unset, nothing is written. */
export interface CallRecord {
  /** One entry per name: a tool, or `_method:`, `_rest:`, `_dash:`, `_nlweb:` names. */
  tools: string[];
  /** Status of a successful call: `trace` for protocol-level calls. */
  okAs?: Exclude<CallStatus, "error">;
  /** The call failed although the HTTP status says otherwise (a JSON-RPC error). */
  failed?: boolean;
}

/**
 * Writes `c.get("call")` to the call log after the request is answered (docs/SPEC.md "Events").
 * A probe round's requests are answered like any other but not logged (server/domain/status/probes.ts).
 */
export function callLogged(
  deps: Pick<AppDeps, "callLog" | "clock" | "store">,
  surface: Surface,
  initial?: CallRecord,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const probe = await isProbeRequest(
      { db: deps.store.db, clock: deps.clock },
      c.req.header(PROBE_HEADER),
    );
    c.set("probe", probe);
    if (initial) c.set("call", initial);
    const read = callScope();
    await inCallScope(read, next);
    const call = c.get("call");
    if (!call || probe) return;
    annotateRequest({
      "folio.surface": surface,
      "folio.publisher_id": c.get("publisher")?.id ?? "",
      "folio.request_id": c.get("requestId"),
    });
    const latencyMs = performance.now() - started;
    const failed = call.failed || c.res.status >= 400;
    const status = failed ? "error" : call.okAs ?? "ok";
    meters.calls.add(call.tools.length, { surface, status });
    for (const tool of call.tools) {
      deps.callLog.record({
        publisherId: c.get("publisher")?.id ?? null,
        at: deps.clock.now(),
        surface,
        tool,
        userAgent: c.req.header("user-agent") ?? "",
        latencyMs,
        status,
        httpStatus: c.res.status,
        identity: c.get("identity") ?? null,
        requestId: c.get("requestId"),
        articleId: read.articleId,
      });
    }
  };
}

/**
 * The env of the routes behind `publisherFrom()`: their publisher is present. Handlers and
 * middleware that run behind it (`gate()`, a surface's own) take `Context<PublishedEnv>`.
 */
export type PublishedEnv = AppEnv & { Variables: { publisher: Publisher } };

/** Puts the publisher on `c.var`: by custom domain (the Host), or by the `:publisherId` param. */
export function publisherFrom(deps: Pick<AppDeps, "store">, via: "host" | "param") {
  return createMiddleware<PublishedEnv>(async (c, next) => {
    const publisher = via === "host"
      ? await findPublisherByDomain(deps.store.db, hostOf(c))
      : await getPublisher(deps.store.db, c.req.param("publisherId") ?? "");
    if (!publisher) {
      throw new Refused({ kind: "unknown_publisher", via, host: hostOf(c).replace(/:\d+$/, "") });
    }
    c.set("publisher", publisher);
    await next();
  });
}

/**
 * The reach gate, then the credential: refuses keys in the URL, asks `reach()` about what the
 * request presents, verifies what passed, and sets `c.get("credential")` and `c.get("identity")`.
 * `anonymous` names a caller without a credential (null: the surface names it later).
 */
export function gate(
  deps: Pick<AppDeps, "store" | "clock" | "config" | "receipts">,
  surface: ReachSurface,
  anonymous: (c: Context<PublishedEnv>) => string | null,
) {
  // Behind publisherFrom(), whose publisher it reads.
  return createMiddleware<PublishedEnv>(async (c, next) => {
    const publisher = c.get("publisher");
    if (keyInUrl(new URL(c.req.url))) throw new Refused({ kind: "key_in_url" });
    const presented = presentation(c.req.header("authorization"));
    // A refused anonymous caller is still logged under its anonymous identity.
    if (presented.presented === "none") c.set("identity", anonymous(c));
    const why = reach(publisher, surface, presented.presented);
    if (why) throw new Refused({ kind: "unreachable", why, publisher });
    const credential = presented.presented === "none" ? null : await verifyCredential(
      { db: deps.store.db, clock: deps.clock, config: deps.config, receipts: deps.receipts },
      publisher,
      presented,
    ).catch((e) => {
      if (e instanceof LicenseTokenError) {
        throw new Refused({ kind: "bad_license", publisher, license: e });
      }
      throw e;
    });
    if (presented.presented !== "none" && !credential) {
      throw new Refused({ kind: "bad_credential", publisher });
    }
    c.set("credential", credential);
    if (credential) c.set("identity", credential.identity);
    await next();
  });
}

/** Largest JSON-RPC request the MCP and A2A endpoints read (docs/TEST-PLAN.md 2.18: 1 MiB). */
export const RPC_BODY_LIMIT = 1024 * 1024;

/** Largest JSON document the platform's JSON endpoints read (settings, rules, sign-ups, OAuth). */
export const JSON_BODY_LIMIT = 64 * 1024;

/**
 * Refuses bodies over `limit` bytes, declared or streamed, before anything parses them
 * (hono/body-limit stops reading at the first chunk past the limit). The error thrown is a
 * `Refused` for the surface to word, or what `refuse` makes.
 */
export function bodyLimited(
  limit: number,
  refuse: (limit: number) => Error = (l) => new Refused({ kind: "body_too_large", limit: l }),
): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: limit,
    onError: async (c) => {
      await c.req.raw.body?.cancel().catch(() => {});
      throw refuse(limit);
    },
  });
}

/** The caller the read functions take, from what the envelope put on `c.var`. */
export function callerOf<E extends AppEnv>(
  c: Context<E>,
  deps: Pick<AppDeps, "config">,
  surface: Surface,
): Caller {
  return {
    identity: c.get("identity")!,
    buyerId: c.get("credential")?.buyerId ?? null,
    territory: territoryOf(deps.config, c.req.raw.headers),
    surface,
    license: c.get("credential")?.license ?? null,
  };
}
