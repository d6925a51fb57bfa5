/**
 * /operator/account: the operator, the node's operators and operator keys (made, shown once, and
 * revoked); /operator/recovery-codes: new recovery codes, made by a POST and shown once by the
 * GET it redirects to (server/domain/operators/accounts.ts keeps them sealed on the session).
 */
import { type Context, Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { OperatorAccountPage, OperatorKeyPage } from "../../../ui/operator/account.tsx";
import { RecoveryCodesPage } from "../../../ui/operator/signin.tsx";
import {
  createdKeySchema,
  keyListSchema,
  operatorListSchema,
  recoveryCodesSchema,
} from "../../surfaces/operator/schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { type FormProblem, formProblem, NO_PROBLEM } from "../kit/field_errors.ts";
import { doneRedirect, field, formLimit, noticeOf, readForm, send } from "../kit/forms.ts";
import { must, pageStatus, segment } from "../kit/pages.ts";
import { redirectToNewKey, takeNewKey } from "../kit/shown_once.ts";
import type { AppDeps } from "../../deps.ts";
import type { OperatorPagesEnv } from "./site.ts";

const NEW_KEY = "/operator/account/keys/new";
const NOTICES = { revoked: "The key is revoked: it stops working at once." };
const KEY_FIELDS = { name: { name: "name", label: "What it is for" } };

/** The account pages. */
export function accountPages(deps: AppDeps, api: ApiFetch): Hono<OperatorPagesEnv> {
  const app = new Hono<OperatorPagesEnv>();

  const render = async (
    c: Context<OperatorPagesEnv>,
    problem: FormProblem,
    status = 200,
    keyName = "",
  ) => {
    const [operators, keys] = await Promise.all([
      callApi(c, api, "/api/operator/operators", operatorListSchema),
      callApi(c, api, "/api/operator/keys", keyListSchema),
    ]);
    return c.html(
      renderPage(OperatorAccountPage({
        who: c.get("who"),
        operators: must(operators).operators,
        keys: must(keys).keys,
        notice: noticeOf(c, NOTICES),
        problem: problem.top,
        fieldProblem: problem.field,
        keyName,
      })),
      pageStatus(status),
    );
  };

  app.get("/account", (c) => render(c, NO_PROBLEM));

  app.post("/account/keys", formLimit, async (c) => {
    const f = await readForm(c);
    const name = field(f, "name");
    const made = await send(c, api, f, "/api/operator/keys", {
      method: "POST",
      json: { name },
    }, createdKeySchema);
    if (!made.ok) return render(c, formProblem(made, KEY_FIELDS), made.status, name);
    // Post/redirect/get (issue 42): a reload of the key's page makes no second key.
    const key = { name, apiKey: made.body.apiKey };
    return await redirectToNewKey(c, deps, NEW_KEY, c.get("who").csrfToken, key);
  });

  app.get("/account/keys/new", async (c) => {
    const key = await takeNewKey(c, c.get("who").csrfToken);
    if (!key) return c.redirect("/operator/account", 303);
    return c.html(renderPage(OperatorKeyPage({ who: c.get("who"), ...key })));
  });

  app.post("/account/keys/:id/revoke", formLimit, async (c) => {
    const f = await readForm(c);
    const done = await send(c, api, f, `/api/operator/keys/${segment(c.req.param("id"))}`, {
      method: "DELETE",
    });
    if (!done.ok) return render(c, formProblem(done, {}), done.status);
    return doneRedirect(c, "/operator/account", "revoked");
  });

  app.post("/recovery-codes", formLimit, async (c) => {
    const f = await readForm(c);
    must(await send(c, api, f, "/api/operator/recovery-codes", { method: "POST" }));
    return c.redirect("/operator/recovery-codes", 303);
  });

  app.get("/recovery-codes", async (c) => {
    const who = c.get("who");
    const shown = await callApi(
      c,
      api,
      "/api/operator/recovery-codes/reveal",
      recoveryCodesSchema,
      {
        method: "POST",
        csrf: who.csrfToken,
      },
    );
    const codes = shown.ok ? shown.body.recoveryCodes : null;
    c.header("Cache-Control", "no-store");
    return c.html(
      renderPage(
        RecoveryCodesPage({
          codes,
          csrf: who.csrfToken,
          left: codes ? codes.length : who.recoveryCodesLeft,
        }),
      ),
    );
  });
  return app;
}
