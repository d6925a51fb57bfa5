/**
 * /publisher/signup, /publisher/login and /publisher/logout: pages over POST /api/publishers/
 * signup, login and logout. The API sets and clears the session cookie; the console passes its
 * Set-Cookie on to the browser. And, signed in, /publisher/account: PUT /api/publisher/password.
 */
import { type Context, Hono } from "hono";
import { getCookie } from "hono/cookie";
import { LoginPage, SignupPage, WelcomePage } from "../../../ui/console/account.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { AccountPage } from "../../../ui/console/password.tsx";
import type { AppDeps } from "../../deps.ts";
import { signupResponseSchema } from "../../surfaces/manage/openapi_schemas.ts";
import { EXPIRED_FORM, passCookie, PASSWORD_FIELDS, signOut } from "../kit/account.ts";
import { type FormProblem, formProblem, NO_PROBLEM } from "../kit/field_errors.ts";
import { type ApiAnswer, type ApiFetch, callApi } from "../kit/api.ts";
import { doneRedirect, field, formLimit, noticeOf, readForm, send } from "../kit/forms.ts";
import { pageStatus } from "../kit/pages.ts";
import { formToken, formTokenMatches, PUBLISHER_SITE, safeNext } from "../kit/session.ts";
import { passwordResetPages, RESET_DONE } from "../kit/password_reset.ts";
import { redirectToNewKey, takeNewKey } from "../kit/shown_once.ts";
import type { ConsoleEnv, ConsoleVisitor, VisitorEnv } from "../kit/session.ts";

/** The pages used without a session. */
export function accountPages(deps: AppDeps, api: ApiFetch): Hono<VisitorEnv<ConsoleVisitor>> {
  const app = new Hono<VisitorEnv<ConsoleVisitor>>();
  app.route(
    "/",
    passwordResetPages(deps, api, PUBLISHER_SITE, {
      home: "/publisher",
      name: "publisher console",
      apiBase: "/api/publishers",
    }),
  );

  app.get("/signup", (c) => {
    const values = { name: "", email: "", slug: "" };
    return c.html(renderPage(SignupPage({ csrf: formToken(c, deps, PUBLISHER_SITE), values })));
  });

  app.post("/signup", formLimit, async (c) => {
    const f = await readForm(c);
    const values = { name: field(f, "name"), email: field(f, "email"), slug: field(f, "slug") };
    const again = (problem: string, status: 400 | 403 | 409 | 429) =>
      c.html(
        renderPage(SignupPage({ csrf: formToken(c, deps, PUBLISHER_SITE), values, problem })),
        status,
      );
    if (!formTokenMatches(c, f._csrf, PUBLISHER_SITE)) return again(EXPIRED_FORM, 403);
    const password = field(f, "password");
    const signup = await callApi(c, api, "/api/publishers/signup", signupResponseSchema, {
      method: "POST",
      json: { ...values, password },
    });
    if (!signup.ok) return again(signup.problem!, statusOf(signup));
    const login = await callApi(c, api, "/api/publishers/login", null, {
      method: "POST",
      json: { email: values.email, password },
    });
    passCookie(c, login);
    // Post/redirect/get (issue 42): a reload of the welcome page neither signs up again nor
    // shows the key twice.
    const welcome = { name: values.name, apiKey: signup.body.apiKey };
    // No session to seal under yet: the sign-up form's own double-submit token is the material.
    return await redirectToNewKey(c, deps, "/publisher/welcome", field(f, "_csrf"), welcome);
  });

  app.get("/welcome", async (c) => {
    const welcome = await takeNewKey(c, getCookie(c, PUBLISHER_SITE.formCookie) ?? "");
    // Shown already: Settings is where a lost key is replaced (after signing in).
    if (!welcome) return c.redirect("/publisher/settings", 303);
    return c.html(renderPage(WelcomePage(welcome)));
  });

  app.get("/login", (c) => {
    const next = safeNext(c.req.query("next"), PUBLISHER_SITE);
    const notice = LOGIN_NOTICES[c.req.query("done") ?? ""] ?? null;
    return c.html(
      renderPage(LoginPage({ csrf: formToken(c, deps, PUBLISHER_SITE), email: "", next, notice })),
    );
  });

  app.post("/login", formLimit, async (c) => {
    const f = await readForm(c);
    const email = field(f, "email");
    const next = safeNext(field(f, "next"), PUBLISHER_SITE);
    const again = (problem: string, status: 400 | 401 | 403 | 429) =>
      c.html(
        renderPage(LoginPage({ csrf: formToken(c, deps, PUBLISHER_SITE), email, next, problem })),
        status,
      );
    if (!formTokenMatches(c, f._csrf, PUBLISHER_SITE)) return again(EXPIRED_FORM, 403);
    const login = await callApi(c, api, "/api/publishers/login", null, {
      method: "POST",
      json: { email, password: field(f, "password") },
    });
    if (!login.ok) return again(login.problem!, login.status === 429 ? 429 : 401);
    passCookie(c, login);
    return c.redirect(next, 303);
  });

  app.post(
    "/logout",
    formLimit,
    signOut(api, PUBLISHER_SITE, { path: "/api/publishers/logout", method: "POST" }),
  );
  return app;
}

/** The signed-in account page and its password form (the session's CSRF token, like every form). */
export function passwordPages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  const notices = { password: "Password changed. Your other sessions are signed out." };
  const render = (c: Context<ConsoleEnv>, problem: FormProblem, status = 200) =>
    c.html(
      renderPage(AccountPage({
        who: c.get("who"),
        notice: noticeOf(c, notices),
        problem: problem.top,
        fieldProblem: problem.field,
      })),
      pageStatus(status),
    );

  app.get("/account", (c) => render(c, NO_PROBLEM));
  app.post("/account/password", formLimit, async (c) => {
    const f = await readForm(c);
    // Passwords go as typed: no trimming.
    const saved = await send(c, api, f, "/api/publisher/password", {
      method: "PUT",
      json: { currentPassword: field(f, "currentPassword"), password: field(f, "password") },
    });
    if (!saved.ok) {
      const retry = saved.headers.get("retry-after");
      if (retry) c.header("Retry-After", retry);
      return render(c, formProblem(saved, PASSWORD_FIELDS), saved.status);
    }
    return doneRedirect(c, "/publisher/account", "password");
  });
  return app;
}

const LOGIN_NOTICES: Record<string, string> = {
  "signed-out": "You are signed out.",
  "password-reset": RESET_DONE,
};

function statusOf(answer: ApiAnswer<unknown>): 400 | 409 | 429 {
  return answer.status === 409 || answer.status === 429 ? answer.status : 400;
}
