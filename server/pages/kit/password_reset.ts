/**
 * Both portals' "Forgot password?" pages (docs/decisions/email.md): /forgot asks the API for a
 * link, /reset takes the emailed link and a new password. They work before there is a session, so
 * they carry the sign-in forms' double-submit token; the operator console can mount them too.
 */
import { type Context, Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { ForgotPage, ResetPage, type ResetPortal } from "../../../ui/console/reset.tsx";
import type { AppDeps } from "../../deps.ts";
import { resetRequestedSchema } from "../../domain/accounts/password_reset_schemas.ts";
import { EXPIRED_FORM, PASSWORD_FIELDS } from "./account.ts";
import { type ApiFetch, callApi } from "./api.ts";
import { formProblem } from "./field_errors.ts";
import { field, formLimit, readForm } from "./forms.ts";
import { refusalStatus } from "./pages.ts";
import { formToken, formTokenMatches, type PortalSite } from "./session.ts";

/** The sign-in page's notice after a reset. */
export const RESET_DONE =
  "Your password is changed and every session is signed out: sign in with the new one.";

const EMAIL_FIELD = { email: { name: "email", label: "Email" } };
const SPENT_LINK =
  "This reset link is not valid any more: it was used, it expired (links work for one hour) or it is incomplete. Ask for a new one.";

/** The four routes, for a portal whose API serves the reset operations under `apiBase`. */
export function passwordResetPages(
  deps: AppDeps,
  api: ApiFetch,
  site: PortalSite,
  portal: ResetPortal & { apiBase: string },
  // deno-lint-ignore no-explicit-any
): Hono<any> {
  const app = new Hono();
  const token = (c: Context) => formToken(c, deps, site);
  const noStore = (c: Context) => {
    c.header("Cache-Control", "no-store");
    // The link's token is in the URL: it must not leave in a Referer.
    c.header("Referrer-Policy", "no-referrer");
  };
  const forgot = (
    c: Context,
    p: { email?: string; sent?: string; problem?: string },
    status = 200,
  ) =>
    c.html(
      renderPage(ForgotPage({
        portal,
        csrf: token(c),
        email: p.email ?? "",
        emailOn: deps.config.mail !== null,
        sent: p.sent ?? null,
        problem: p.problem ?? null,
      })),
      status === 200 ? 200 : status === 503 ? 503 : refusalStatus(status),
    );

  app.get("/forgot", (c) => forgot(c, {}));
  app.post("/forgot", formLimit, async (c) => {
    const f = await readForm(c);
    const email = field(f, "email");
    if (!formTokenMatches(c, f._csrf, site)) {
      return forgot(c, { email, problem: EXPIRED_FORM }, 403);
    }
    const asked = await callApi(c, api, `${portal.apiBase}/password-reset`, resetRequestedSchema, {
      method: "POST",
      json: { email },
    });
    if (!asked.ok) {
      const retry = asked.headers.get("retry-after");
      if (retry) c.header("Retry-After", retry);
      const problem = asked.status === 503
        ? "Email is off on this node."
        : formProblem(asked, EMAIL_FIELD).field?.message ?? asked.problem!;
      return forgot(c, { email, problem }, asked.status);
    }
    return forgot(c, { sent: asked.body.message });
  });

  const reset = (
    c: Context,
    linkToken: string,
    p: { problem?: string | null; fieldProblem?: ReturnType<typeof formProblem>["field"] },
    status = 200,
  ) => {
    noStore(c);
    return c.html(
      renderPage(ResetPage({ portal, csrf: token(c), token: linkToken, ...p })),
      status === 200 ? 200 : refusalStatus(status),
    );
  };
  app.get("/reset", (c) => {
    const linkToken = c.req.query("token") ?? "";
    return reset(c, linkToken, {
      problem: linkToken ? null : "This link is incomplete: open the whole link from the email.",
    }, linkToken ? 200 : 400);
  });
  app.post("/reset", formLimit, async (c) => {
    const f = await readForm(c);
    const linkToken = field(f, "token");
    if (!formTokenMatches(c, f._csrf, site)) {
      return reset(c, linkToken, { problem: EXPIRED_FORM }, 403);
    }
    // Passwords go as typed: no trimming.
    const done = await callApi(c, api, `${portal.apiBase}/password-reset/confirm`, null, {
      method: "POST",
      json: { token: linkToken, password: field(f, "password") },
    });
    if (!done.ok) {
      const retry = done.headers.get("retry-after");
      if (retry) c.header("Retry-After", retry);
      // A link that is spent leaves no form to fill: only the way to ask for a new one.
      if (done.param === "token") return reset(c, "", { problem: SPENT_LINK }, done.status);
      const problem = formProblem(done, PASSWORD_FIELDS);
      return reset(
        c,
        linkToken,
        { problem: problem.top, fieldProblem: problem.field },
        done.status,
      );
    }
    return c.redirect(`${portal.home}/login?done=password-reset`, 303);
  });
  return app;
}
