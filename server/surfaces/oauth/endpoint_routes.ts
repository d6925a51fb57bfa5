/** Machine-facing OAuth endpoints: metadata (RFC 8414, RFC 9728), registration (RFC 7591), token. */
import { Hono } from "hono";
import { getClient } from "../../../store/oauth.ts";
import { findPublisherByDomain, getPublisher } from "../../../store/publishers.ts";
import { hostOf } from "../../platform/middleware.ts";
import { publisherUrls } from "../../platform/urls.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { notFound } from "../../platform/errors.ts";
import { NO_STORE, OAuthError, oauthErrorResponse } from "./errors.ts";
import { oauthBodyLimit, oauthThrottle, OPEN_CORS, parseForm, readBody } from "./http.ts";
import { clientAddress } from "../../platform/throttle.ts";
import { authorizationServerMetadata, protectedResourceMetadata } from "./metadata.ts";
import { metadataError, registerClient } from "./register.ts";
import { singleResource } from "./resource.ts";
import { redeemCode, refresh } from "./token.ts";

/** RFC 8414 and RFC 9728 metadata, served under /.well-known (server/well_known.ts). */
export function metadataRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const paths = ["/oauth-authorization-server", "/oauth-protected-resource/api/mcp/:publisherId"];
  for (const path of paths) app.options(path, (c) => c.body(null, 204, OPEN_CORS));
  app.get(
    "/oauth-authorization-server",
    (c) => c.json(authorizationServerMetadata(deps.config.baseUrl), 200, OPEN_CORS),
  );
  app.get("/oauth-protected-resource/api/mcp/:publisherId", async (c) => {
    const publisher = await getPublisher(deps.store.db, c.req.param("publisherId"));
    if (!publisher) throw notFound("Publisher");
    return c.json(protectedResourceMetadata(deps.config.baseUrl, publisher), 200, OPEN_CORS);
  });
  // On a publisher's own domain, the metadata of its `/mcp`: at the RFC 9728 §3.1 path, and at the
  // bare well-known path that clients try when the resource has no metadata of its own path.
  for (const path of ["/oauth-protected-resource/mcp", "/oauth-protected-resource"]) {
    app.options(path, (c) => c.body(null, 204, OPEN_CORS));
    app.get(path, async (c) => {
      const publisher = await findPublisherByDomain(deps.store.db, hostOf(c));
      const resource = publisher && publisherUrls(deps.config, publisher).mcpHost;
      if (!publisher || !resource) throw notFound("Publisher");
      const body = protectedResourceMetadata(deps.config.baseUrl, publisher, resource);
      return c.json(body, 200, OPEN_CORS);
    });
  }
  return app;
}

/** Registration and token routes under /api/oauth; CORS-open without credentials. */
export function endpointRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError((err, c) => {
    if (err instanceof OAuthError) return withCors(oauthErrorResponse(c, err));
    throw err;
  });
  for (const path of ["/register", "/token"]) {
    app.options(path, (c) => c.body(null, 204, OPEN_CORS));
  }

  app.post("/register", oauthBodyLimit("invalid_client_metadata"), async (c) => {
    const text = await readBody(c, {
      type: "application/json",
      error: "invalid_client_metadata",
    });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw metadataError("body: not valid JSON");
    }
    const client = await registerClient(deps.store.db, body, {
      from: clientAddress(c),
      now: deps.clock.now(),
    });
    return c.json(client, 201, { ...NO_STORE, ...OPEN_CORS });
  });

  app.post(
    "/token",
    oauthThrottle(deps, "token", "too_many_requests"),
    oauthBodyLimit("invalid_request"),
    async (c) => {
      const form = parseForm(
        await readBody(c, { type: "application/x-www-form-urlencoded", error: "invalid_request" }),
      );
      const clientId = await authenticateClient(deps, form, c.req.header("authorization"));
      const resource = singleResource(form.getAll("resource"), { required: false });
      const now = deps.clock.now();
      const grantType = form.get("grant_type");
      let body;
      if (grantType === "authorization_code") {
        body = await redeemCode(deps.store.db, {
          clientId,
          code: form.get("code"),
          codeVerifier: form.get("code_verifier"),
          redirectUri: form.get("redirect_uri"),
          resource,
          now,
        });
      } else if (grantType === "refresh_token") {
        body = await refresh(deps.store.db, {
          clientId,
          refreshToken: form.get("refresh_token"),
          scope: form.get("scope"),
          resource,
          now,
        });
      } else if (!grantType) {
        throw new OAuthError("invalid_request", "grant_type: required");
      } else {
        throw new OAuthError(
          "unsupported_grant_type",
          "grant_type: only authorization_code and refresh_token are supported",
        );
      }
      return c.json(body, 200, { ...NO_STORE, ...OPEN_CORS });
    },
  );
  return app;
}

// Public clients identify themselves with client_id (OAuth 2.1 §2.4); a Basic header with an
// empty secret is accepted too, since some client libraries always send one.
async function authenticateClient(
  deps: AppDeps,
  form: URLSearchParams,
  authorization: string | undefined,
): Promise<string> {
  let id = form.get("client_id");
  if (authorization) {
    const m = /^Basic +([A-Za-z0-9+/=]+)$/i.exec(authorization);
    const decoded = m ? safeAtob(m[1]) : null;
    const [user, secret] = decoded?.split(":") ?? [];
    const basicId = user ? safeDecode(user) : null;
    if (!basicId || secret || (id !== null && id !== basicId)) throw invalidClient();
    id = basicId;
  }
  if (!id) throw new OAuthError("invalid_request", "client_id: required");
  const client = /^[\w-]{1,80}$/.test(id) ? await getClient(deps.store.db, id) : null;
  if (!client || client.kind !== "dynamic" || client.revokedAt !== null) throw invalidClient();
  return client.id;
}

function invalidClient(): OAuthError {
  return new OAuthError("invalid_client", "client_id: unknown or revoked client", 401, {
    "WWW-Authenticate": 'Basic realm="folio-oauth"',
  });
}

function safeAtob(s: string): string | null {
  try {
    return atob(s);
  } catch {
    return null;
  }
}

function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

function withCors(res: Response): Response {
  for (const [k, v] of Object.entries(OPEN_CORS)) res.headers.set(k, v);
  return res;
}
