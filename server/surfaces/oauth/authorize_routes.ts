/**
 * GET /api/oauth/authorize and the consent form's POST back to it. By default the request is
 * approved at once (docs/SPEC.md "Authentication" 3: no login, no consent screen); with the publisher's
 * consentScreen toggle on, the branded page asks first, and says who pays: the buyer account
 * signed in to the buyer portal in this browser (its session cookie; the portal's sign-in comes
 * back here) when subscription linking is on. Pages are never framed nor CORS-readable, and the
 * form is protected by a double-submit CSRF token bound to a SameSite=Strict cookie.
 */
import { type Context, Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import {
  AuthorizeErrorPage,
  ConsentExpiredPage,
  ConsentPage,
  type PayerView,
} from "../../../ui/consent.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { randomBase62, timingSafeEqual } from "../../platform/secrets.ts";
import { CSP, pageHeaders } from "../../platform/security_headers.ts";
import {
  type AuthorizationRequest,
  checkAuthorizationRequest,
  issueCode,
  RedirectError,
  redirectWith,
} from "./authorize.ts";
import { publicRights } from "../../domain/licensing/rights.ts";
import { approveConsent, ConsentProblem, type Payer, payerOf, signedInBuyer } from "./consent.ts";
import { OAuthError, PageError } from "./errors.ts";
import { oauthBodyLimit, oauthThrottle, PAGE_HEADERS, parseForm, readBody } from "./http.ts";

const CSRF_COOKIE = "folio_oauth_csrf";
const FORM_FIELDS = new Set(["csrf_token", "email", "accept_terms", "decision", "payer", "buyer"]);

/** The authorization endpoint and its consent form. */
export function authorizeRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const issuer = deps.config.baseUrl;

  app.onError((err, c) => {
    if (err instanceof PageError) return page(c, err.error, err.description, 400);
    if (err instanceof RedirectError) {
      const e = err.error;
      const params = { error: e.error, error_description: e.description, state: err.state };
      return redirect(c, redirectWith(err.redirectUri, params, { issuer }), 302);
    }
    if (err instanceof OAuthError) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      return page(c, err.error, err.description, err.status === 429 ? 429 : 400);
    }
    throw err;
  });
  // A browser client may open this in a popup and wait to hear from its redirect page: the
  // opener must survive the visit (no Cross-Origin-Opener-Policy isolation here).
  app.use("/authorize", pageHeaders(deps.config, CSP.consent, { keepOpener: true }));
  app.use("/authorize", oauthThrottle(deps, "authorize", "temporarily_unavailable"));

  app.get("/authorize", async (c) => {
    const params = new URL(c.req.url).searchParams;
    const req = await checkAuthorizationRequest(deps.store.db, params, deps.config);
    if (req.publisher.toggles.consentScreen) return await consentPage(c, req, params, null, 200);
    const code = await issueCode(deps.store.db, req, {
      email: req.client.email,
      now: deps.clock.now(),
    });
    return redirect(
      c,
      redirectWith(req.redirectUri, { code, state: req.state }, { issuer }),
      302,
    );
  });

  app.post("/authorize", oauthBodyLimit("invalid_request"), async (c) => {
    const form = parseForm(
      await readBody(c, { type: "application/x-www-form-urlencoded", error: "invalid_request" }),
    );
    const params = new URLSearchParams([...form].filter(([k]) => !FORM_FIELDS.has(k)));
    if (
      !sameOriginPost(c, issuer) ||
      !csrfMatches(getCookie(c, CSRF_COOKIE), form.get("csrf_token"))
    ) {
      // In words, with the way back: the same request, asked again (and checked again) by GET.
      const again = params.has("client_id") ? `/api/oauth/authorize?${params}` : null;
      return c.html(renderPage(ConsentExpiredPage({ again })), 403, PAGE_HEADERS);
    }
    const req = await checkAuthorizationRequest(deps.store.db, params, deps.config);
    // After a form POST the browser must GET the redirect URI: 303, never 307 (docs/TEST-PLAN.md 1.13).
    if (form.get("decision") !== "approve") {
      const denied = { error: "access_denied", error_description: "The reader declined" };
      return redirect(
        c,
        redirectWith(req.redirectUri, { ...denied, state: req.state }, { issuer }),
        303,
      );
    }
    const now = deps.clock.now();
    const payer = await payerOf(
      deps.store.db,
      req,
      await signedInBuyer(deps.store.db, getCookie(c), now),
    );
    try {
      const code = await approveConsent(deps.store.db, req, {
        email: form.get("email") ?? "",
        acceptTerms: form.get("accept_terms") === "yes",
        billing: {
          billBuyer: form.get("payer") === "buyer",
          shownBuyerId: form.get("buyer") ?? "",
        },
        payer,
        now,
      });
      return redirect(
        c,
        redirectWith(req.redirectUri, { code, state: req.state }, { issuer }),
        303,
      );
    } catch (err) {
      if (!(err instanceof ConsentProblem)) throw err;
      return consentPage(
        c,
        req,
        params,
        { email: form.get("email") ?? "", problem: err.message },
        400,
        payer,
      );
    }
  });

  async function consentPage(
    c: Context<AppEnv>,
    req: AuthorizationRequest,
    params: URLSearchParams,
    again: { email: string; problem: string } | null,
    status: 200 | 400,
    known?: Payer,
  ): Promise<Response> {
    const payer = known ??
      await payerOf(
        deps.store.db,
        req,
        await signedInBuyer(deps.store.db, getCookie(c), deps.clock.now()),
      );
    const existing = getCookie(c, CSRF_COOKIE);
    const csrf = existing && /^[0-9A-Za-z]{32}$/.test(existing) ? existing : randomBase62(32);
    setCookie(c, CSRF_COOKIE, csrf, {
      httpOnly: true,
      sameSite: "Strict",
      secure: issuer.startsWith("https:"),
      path: "/api/oauth",
      maxAge: 3600,
    });
    const buyerEmail = payer.kind === "signed_in" || payer.kind === "linked"
      ? payer.buyer.email
      : null;
    const html = renderPage(ConsentPage({
      publisher: req.publisher,
      clientName: req.client.name,
      selfNamed: req.client.kind === "dynamic",
      redirectHost: redirectHost(req.redirectUri),
      termsUrl: `${issuer}/license/${req.publisher.id}`,
      rights: publicRights(req.publisher.rights),
      meterLimit: req.publisher.paywallMeterLimit,
      payer: payerView(payer, params),
      params: Object.fromEntries(params),
      csrfToken: csrf,
      email: again?.email ?? req.client.email ?? buyerEmail ?? "",
      problem: again?.problem ?? null,
    }));
    return c.html(html, status, PAGE_HEADERS);
  }
  return app;
}

function page(
  c: Context<AppEnv>,
  error: string,
  description: string,
  status: 400 | 403 | 429,
): Response {
  return c.html(renderPage(AuthorizeErrorPage({ error, description })), status, PAGE_HEADERS);
}

function redirect(c: Context<AppEnv>, location: string, status: 302 | 303): Response {
  return c.body(null, status, { ...PAGE_HEADERS, Location: location });
}

function csrfMatches(cookie: string | undefined, field: string | null): boolean {
  return !!cookie && !!field && cookie.length === 32 && timingSafeEqual(cookie, field);
}

// Browsers send Origin on form POSTs; one from elsewhere is refused even with a token.
function sameOriginPost(c: Context<AppEnv>, issuer: string): boolean {
  const origin = c.req.header("origin");
  if (c.req.header("sec-fetch-site") === "cross-site") return false;
  return !origin || origin === new URL(issuer).origin;
}

/** The payer as the page shows it; signing in to the buyer portal returns to this request. */
function payerView(payer: Payer, params: URLSearchParams): PayerView {
  if (payer.kind === "none") return payer;
  if (payer.kind === "sign_in") {
    const back = `/api/oauth/authorize?${params}`;
    return { kind: "sign_in", signInUrl: `/buyer/login?next=${encodeURIComponent(back)}` };
  }
  const { id, name, email } = payer.buyer;
  return { kind: payer.kind, buyer: { id, name, email } };
}

function redirectHost(uri: string): string {
  const u = new URL(uri);
  return u.host || `${u.protocol}${u.pathname}`;
}
