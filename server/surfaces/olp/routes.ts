/**
 * Folio's RSL license server (Open License Protocol, docs/decisions/rsl.md), mounted at /api/olp:
 * the server every `<content server>` of a publisher's license.xml names.
 *   POST /token       grant_type=rsl (or client_credentials), `license` (a `<license>` element)
 *                     and `resource`; client authentication by HTTP Basic or client_secret_post
 *   POST /introspect  RFC 7662 for license tokens, client-authenticated
 * No encrypted assets are offered, so there is no key endpoint (license.xml says so).
 */
import { type Context, Hono } from "hono";
import { type OlpClient, olpClientByCredentials } from "../../../store/olp_clients.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { bodyLimited, JSON_BODY_LIMIT } from "../../platform/envelope.ts";
import { AppError } from "../../platform/errors.ts";
import { hashSecret } from "../../platform/secrets.ts";
import { clientAddress, throttle } from "../../platform/throttle.ts";
import {
  LicenseTokenError,
  OLP_PATH,
  olpServerOf,
  verifyLicenseToken,
} from "../../domain/rsl/license_tokens.ts";
import { grantLicense, OlpError } from "../../domain/rsl/olp.ts";

/** Where the license server is mounted (server/app.ts); license.xml names `${baseUrl}${OLP}`. */
export const OLP = OLP_PATH;

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };
const TOKEN_LIMIT = { limit: 120, windowMs: 60_000 };

/** The license server's routes. */
export function olpRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const issuer = () => olpServerOf(deps.config.baseUrl);
  app.onError((err, c) => {
    if (!(err instanceof OlpError)) throw err;
    const headers: Record<string, string> = { ...NO_STORE };
    if (err.error === "invalid_client") headers["WWW-Authenticate"] = 'Basic realm="folio-olp"';
    return c.json({ error: err.error, error_description: err.message }, err.status, headers);
  });
  const limited = bodyLimited(
    JSON_BODY_LIMIT,
    () => new OlpError("invalid_request", "body: larger than 64 KiB"),
  );

  app.post("/token", limited, async (c) => {
    await throttled(deps, c);
    const form = await formOf(c);
    const client = await authenticate(deps, c, form);
    const grantType = form.get("grant_type");
    if (grantType !== "rsl" && grantType !== "client_credentials") {
      throw new OlpError("unsupported_grant_type", "grant_type: rsl (or client_credentials)");
    }
    const resource = single(form, "resource");
    const license = single(form, "license");
    const issued = await grantLicense(
      { db: deps.store.db, clock: deps.clock, receipts: deps.receipts, issuer: issuer() },
      client,
      { resource, license },
    );
    return c.json(
      {
        access_token: issued.token,
        token_type: "License",
        expires_in: issued.expiresIn,
        resource: issued.grant.resource,
      },
      200,
      NO_STORE,
    );
  });

  app.post("/introspect", limited, async (c) => {
    await throttled(deps, c);
    const form = await formOf(c);
    await authenticate(deps, c, form);
    const token = single(form, "token");
    try {
      const { grant, jti, expiresAt } = await verifyLicenseToken(deps.receipts, token, {
        now: deps.clock.now(),
        issuer: issuer(),
      });
      return c.json(
        {
          active: true,
          token_type: "License",
          iss: issuer(),
          client_id: grant.clientId,
          sub: grant.clientId,
          aud: grant.publisherId,
          jti,
          exp: Math.floor(expiresAt.getTime() / 1000),
          resource: grant.resource,
          license: {
            permits: grant.usages,
            payment: grant.payment,
            ...(grant.payment === "crawl" ? { amount_micros: grant.amountMicros } : {}),
          },
        },
        200,
        NO_STORE,
      );
    } catch (e) {
      // RFC 7662 section 2.2: an expired, forged or unknown token is just not active.
      if (e instanceof LicenseTokenError) return c.json({ active: false }, 200, NO_STORE);
      throw e;
    }
  });
  return app;
}

async function throttled(deps: AppDeps, c: Context) {
  try {
    await throttle(deps, `olp:ip:${clientAddress(c)}`, TOKEN_LIMIT);
  } catch (err) {
    if (err instanceof AppError && err.status === 429) {
      throw new OlpError("invalid_request", err.message, 429);
    }
    throw err;
  }
}

async function formOf(c: Context): Promise<URLSearchParams> {
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    await c.req.raw.body?.cancel();
    throw new OlpError(
      "invalid_request",
      "Content-Type: must be application/x-www-form-urlencoded",
    );
  }
  return new URLSearchParams(await c.req.text());
}

function single(form: URLSearchParams, name: string): string {
  const values = form.getAll(name);
  if (values.length !== 1 || !values[0]) {
    throw new OlpError("invalid_request", `${name}: required, once`);
  }
  return values[0];
}

/**
 * RFC 6749 section 2.3.1: HTTP Basic (id and secret form-encoded, then base64), or
 * client_id/client_secret in the body; not both. Every failure is the same invalid_client.
 */
async function authenticate(
  deps: AppDeps,
  c: Context,
  form: URLSearchParams,
): Promise<OlpClient> {
  const header = c.req.header("authorization");
  const refused = new OlpError("invalid_client", "Client authentication failed");
  let id: string | null = null;
  let secret: string | null = null;
  if (header !== undefined) {
    const m = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header);
    if (!m || form.has("client_secret")) throw refused;
    try {
      const [rawId, ...rest] = atob(m[1]).split(":");
      id = decodeURIComponent(rawId.replace(/\+/g, " "));
      secret = decodeURIComponent(rest.join(":").replace(/\+/g, " "));
    } catch {
      throw refused;
    }
  } else {
    id = form.get("client_id");
    secret = form.get("client_secret");
  }
  if (!id || !secret) throw refused;
  const client = await olpClientByCredentials(deps.store.db, id, await hashSecret(secret));
  if (!client) throw refused;
  return client;
}
