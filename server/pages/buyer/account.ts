/**
 * /buyer/signup, /buyer/login (by password, or by key at /buyer/login/key) and /buyer/logout:
 * pages over POST /api/marketplace/signup and POST/DELETE /api/marketplace/session. The API sets
 * and clears the session cookie; the portal passes its Set-Cookie on to the browser. The new key is
 * shown once by /buyer/welcome, after the sign-up's redirect.
 */
import { type Context, Hono } from "hono";
import { getCookie } from "hono/cookie";
import { BuyerLoginPage, BuyerSignupPage, BuyerWelcomePage } from "../../../ui/buyer/account.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import type { AppDeps } from "../../deps.ts";
import { signupResponseSchema } from "../../surfaces/marketplace/schemas.ts";
import { EXPIRED_FORM, passCookie, signOut } from "../kit/account.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { field, formLimit, readForm } from "../kit/forms.ts";
import { refusalStatus } from "../kit/pages.ts";
import { formToken, formTokenMatches, safeNext, type VisitorEnv } from "../kit/session.ts";
import { BUYER_SITE, type BuyerVisitor, market } from "./site.ts";
import { redirectToNewKey, takeNewKey } from "../kit/shown_once.ts";
import { passwordResetPages, RESET_DONE } from "../kit/password_reset.ts";

const WELCOME = "/buyer/welcome";

/** The pages used without a session. */
export function buyerAccountPages(deps: AppDeps, api: ApiFetch): Hono<VisitorEnv<BuyerVisitor>> {
  const app = new Hono<VisitorEnv<BuyerVisitor>>();
  const token = (c: Context) => formToken(c, deps, BUYER_SITE);
  app.route(
    "/",
    passwordResetPages(deps, api, BUYER_SITE, {
      home: "/buyer",
      name: "buyer portal",
      apiBase: market(""),
    }),
  );

  app.get("/signup", (c) => {
    return c.html(renderPage(BuyerSignupPage({ csrf: token(c), values: { name: "", email: "" } })));
  });

  app.post("/signup", formLimit, async (c) => {
    const f = await readForm(c);
    const values = { name: field(f, "name"), email: field(f, "email") };
    const again = (problem: string, status: number) =>
      c.html(
        renderPage(BuyerSignupPage({ csrf: token(c), values, problem })),
        refusalStatus(status),
      );
    if (!formTokenMatches(c, f._csrf, BUYER_SITE)) return again(EXPIRED_FORM, 403);
    const password = field(f, "password");
    const signup = await callApi(c, api, market("/signup"), signupResponseSchema, {
      method: "POST",
      json: { ...values, password },
    });
    if (!signup.ok) return again(signup.problem!, signup.status);
    // The sign-up signs the visitor in; if that is refused (throttled), the key is still shown.
    const session = await callApi(c, api, market("/session"), null, {
      method: "POST",
      json: { email: values.email, password },
    });
    passCookie(c, session);
    // Post/redirect/get (issue 42): the key is shown by GET /buyer/welcome, so a reload there
    // neither signs up again nor shows the key twice. Sealed under the form's own token.
    const welcome = { name: values.name, apiKey: signup.body.apiKey };
    // No session to seal under yet: the sign-up form's own double-submit token is the material.
    return await redirectToNewKey(c, deps, WELCOME, field(f, "_csrf"), welcome);
  });

  app.get("/welcome", async (c) => {
    const welcome = await takeNewKey(c, getCookie(c, BUYER_SITE.formCookie) ?? "");
    // Shown already (a reload, or the link followed later): Keys is where a lost key is replaced.
    if (!welcome) return c.redirect("/buyer/keys", 303);
    const signedIn = (await c.var.signedIn()) !== null;
    return c.html(renderPage(BuyerWelcomePage({ ...welcome, signedIn })));
  });

  app.get("/login", (c) => {
    const next = safeNext(c.req.query("next"), BUYER_SITE);
    const done = c.req.query("done");
    const notice = done === "signed-out"
      ? "You are signed out."
      : done === "password-reset"
      ? RESET_DONE
      : next.startsWith(`${BUYER_SITE.alsoReturnsTo}?`)
      ? "Sign in to bill an app's reads to your account: you go back to its connection page next."
      : null;
    return c.html(renderPage(BuyerLoginPage({ csrf: token(c), email: "", next, notice })));
  });

  // Both sign-in forms: by email and password, or by the API key.
  const signIn = (via: "password" | "key") => async (c: Context) => {
    const f = await readForm(c);
    const email = field(f, "email");
    const next = safeNext(field(f, "next"), BUYER_SITE);
    const again = (problem: string, status: number) =>
      c.html(
        renderPage(BuyerLoginPage({ csrf: token(c), email, next, problem })),
        refusalStatus(status),
      );
    if (!formTokenMatches(c, f._csrf, BUYER_SITE)) return again(EXPIRED_FORM, 403);
    const credentials = via === "password"
      ? { email, password: field(f, "password") }
      : { apiKey: field(f, "apiKey") };
    const login = await callApi(c, api, market("/session"), null, {
      method: "POST",
      json: credentials,
    });
    if (!login.ok) return again(login.problem!, login.status);
    passCookie(c, login);
    return c.redirect(next, 303);
  };
  app.post("/login", formLimit, signIn("password"));
  app.post("/login/key", formLimit, signIn("key"));

  app.post(
    "/logout",
    formLimit,
    signOut(api, BUYER_SITE, { path: market("/session"), method: "DELETE" }),
  );
  return app;
}
