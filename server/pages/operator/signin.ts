/**
 * /operator/login (password), /operator/login/code (the second factor), /operator/enrol (the
 * first sign-in adds an authenticator) and /operator/logout: pages over the operator API's
 * sign-in routes (server/surfaces/operator/signin_routes.ts). The API sets the cookie; the pages
 * pass its Set-Cookie on. The password form carries the double-submit token (login CSRF); the
 * later steps carry the session's own CSRF token.
 */
import { type Context, Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { EnrolPage, OperatorLoginPage, SecondFactorPage } from "../../../ui/operator/signin.tsx";
import type { AppDeps } from "../../deps.ts";
import {
  enrolmentSchema,
  operatorLoginAnswerSchema,
  signInStateSchema,
} from "../../surfaces/operator/schemas.ts";
import { EXPIRED_FORM, passCookie, signOut } from "../kit/account.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { field, formLimit, readForm } from "../kit/forms.ts";
import { must } from "../kit/pages.ts";
import { formToken, formTokenMatches, safeNext } from "../kit/session.ts";
import { passwordResetPages, RESET_DONE } from "../kit/password_reset.ts";
import { OPERATOR_SITE, type OperatorVisitorEnv } from "./site.ts";

const LOGIN_NOTICES: Record<string, string> = {
  "signed-out": "You are signed out.",
  "password-reset": RESET_DONE,
};

type Status = 400 | 401 | 403 | 409 | 429;

function statusOf(status: number): Status {
  return ([400, 401, 403, 409, 429] as const).find((s) => s === status) ?? 400;
}

/** Passes the API's Retry-After on with a throttled form. */
function retryAfter(c: Context, headers: Headers): void {
  const retry = headers.get("retry-after");
  if (retry) c.header("Retry-After", retry);
}

/** The pages used before the second factor. */
export function signInPages(deps: AppDeps, api: ApiFetch): Hono<OperatorVisitorEnv> {
  const app = new Hono<OperatorVisitorEnv>();
  app.route(
    "/",
    passwordResetPages(deps, api, OPERATOR_SITE, {
      home: "/operator",
      name: "operator console",
      apiBase: "/api/operator",
    }),
  );

  /** The sign-in in progress (the password step done), or null. */
  const state = async (c: Context) => {
    const answer = await callApi(c, api, "/api/operator/login", signInStateSchema);
    return answer.ok ? answer.body : null;
  };

  app.get("/login", (c) => {
    const next = safeNext(c.req.query("next"), OPERATOR_SITE);
    const notice = LOGIN_NOTICES[c.req.query("done") ?? ""] ?? null;
    const csrf = formToken(c, deps, OPERATOR_SITE);
    return c.html(renderPage(OperatorLoginPage({ csrf, email: "", next, notice })));
  });

  app.post("/login", formLimit, async (c) => {
    const f = await readForm(c);
    const email = field(f, "email");
    const next = safeNext(field(f, "next"), OPERATOR_SITE);
    const again = (problem: string, status: Status) =>
      c.html(
        renderPage(
          OperatorLoginPage({ csrf: formToken(c, deps, OPERATOR_SITE), email, next, problem }),
        ),
        status,
      );
    if (!formTokenMatches(c, f._csrf, OPERATOR_SITE)) return again(EXPIRED_FORM, 403);
    const login = await callApi(c, api, "/api/operator/login", operatorLoginAnswerSchema, {
      method: "POST",
      json: { email, password: field(f, "password") },
    });
    if (!login.ok) {
      retryAfter(c, login.headers);
      return again(login.problem!, login.status === 429 ? 429 : 401);
    }
    passCookie(c, login);
    const step = login.body.next === "enrol" ? "/operator/enrol" : "/operator/login/code";
    return c.redirect(`${step}?next=${encodeURIComponent(next)}`, 303);
  });

  app.get("/login/code", async (c) => {
    const signing = await state(c);
    const next = safeNext(c.req.query("next"), OPERATOR_SITE);
    if (!signing) return c.redirect("/operator/login", 303);
    if (signing.next === "done") return c.redirect(next, 303);
    if (signing.next === "enrol") return c.redirect("/operator/enrol", 303);
    return c.html(
      renderPage(SecondFactorPage({ csrf: signing.csrfToken, next, email: signing.email })),
    );
  });

  app.post("/login/code", formLimit, async (c) => {
    const f = await readForm(c);
    const next = safeNext(field(f, "next"), OPERATOR_SITE);
    const signing = await state(c);
    if (!signing) return c.redirect("/operator/login", 303);
    const recovery = field(f, "recoveryCode").trim();
    const done = await callApi(c, api, "/api/operator/login/second-factor", null, {
      method: "POST",
      csrf: field(f, "_csrf"),
      json: recovery ? { recoveryCode: recovery } : { code: field(f, "code") },
    });
    if (!done.ok) {
      retryAfter(c, done.headers);
      const problem = done.status === 403 ? EXPIRED_FORM : done.problem!;
      return c.html(
        renderPage(
          SecondFactorPage({ csrf: signing.csrfToken, next, email: signing.email, problem }),
        ),
        statusOf(done.status),
      );
    }
    passCookie(c, done);
    return c.redirect(next, 303);
  });

  const enrolPage = async (
    c: Context,
    signing: { csrfToken: string; email: string },
    problem?: string,
    status: Status | 200 = 200,
  ) => {
    const enrolment = must(
      await callApi(c, api, "/api/operator/enrolment", enrolmentSchema, {
        method: "POST",
        csrf: signing.csrfToken,
      }),
    );
    return c.html(
      renderPage(
        EnrolPage({ csrf: signing.csrfToken, email: signing.email, ...enrolment, problem }),
      ),
      status,
    );
  };

  app.get("/enrol", async (c) => {
    const signing = await state(c);
    if (!signing) return c.redirect("/operator/login", 303);
    if (signing.next !== "enrol") return c.redirect("/operator", 303);
    c.header("Cache-Control", "no-store");
    return await enrolPage(c, signing);
  });

  app.post("/enrol", formLimit, async (c) => {
    const f = await readForm(c);
    const signing = await state(c);
    if (!signing) return c.redirect("/operator/login", 303);
    const done = await callApi(c, api, "/api/operator/enrolment/confirm", null, {
      method: "POST",
      csrf: field(f, "_csrf"),
      json: { code: field(f, "code") },
    });
    if (!done.ok) {
      retryAfter(c, done.headers);
      const problem = done.status === 403 ? EXPIRED_FORM : done.problem!;
      return await enrolPage(c, signing, problem, statusOf(done.status));
    }
    passCookie(c, done);
    // The codes are shown on the next page, once, so a reload does not make new ones.
    return c.redirect("/operator/recovery-codes", 303);
  });

  app.post(
    "/logout",
    formLimit,
    signOut(api, OPERATOR_SITE, { path: "/api/operator/logout", method: "POST" }),
  );
  return app;
}
