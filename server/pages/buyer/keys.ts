/**
 * /buyer/keys: GET /api/marketplace/account and /clients, and the forms for POST rotate-key (the
 * new key shown once), PUT password and POST clients.
 */
import { type Context, Hono } from "hono";
import { type FailedForm, KeysPage, type KeysProps } from "../../../ui/buyer/keys.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { KeyRotationPage } from "../../../ui/console/key_rotation.tsx";
import { BUYER_FRAME } from "../../../ui/buyer/shell.tsx";
import {
  accountSchema,
  clientListSchema,
  rotateKeyResponseSchema,
} from "../../surfaces/marketplace/schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { doneRedirect, field, formLimit, noticeOf, readForm, send } from "../kit/forms.ts";
import { must, pageStatus } from "../kit/pages.ts";
import { PASSWORD_FIELDS } from "../kit/account.ts";
import { formProblem } from "../kit/field_errors.ts";
import { type BuyerEnv, market } from "./site.ts";
import { redirectToShowOnce, takeShownOnce } from "../kit/shown_once.ts";
import type { AppDeps } from "../../deps.ts";

const NOTICES: Record<string, string> = {
  password: "Password saved. Your other sessions are signed out.",
  client: "Client claimed: its MCP reads now use your licenses and bill to you.",
};

/** The keys page and its forms. */
export function keysPages(deps: Pick<AppDeps, "config">, api: ApiFetch): Hono<BuyerEnv> {
  const app = new Hono<BuyerEnv>();
  const render = async (c: Context<BuyerEnv>, extra: Partial<KeysProps>, status = 200) => {
    const [account, clients] = await Promise.all([
      callApi(c, api, market("/account"), accountSchema).then(must),
      callApi(c, api, market("/clients"), clientListSchema).then(must),
    ]);
    return c.html(
      renderPage(KeysPage({
        who: c.get("who"),
        account,
        clients: clients.clients,
        notice: noticeOf(c, NOTICES),
        ...extra,
      })),
      pageStatus(status),
    );
  };
  const refused = (c: Context<BuyerEnv>, failed: FailedForm, status: number) =>
    render(c, { failed }, status);

  app.get("/keys", (c) => render(c, {}));

  // The confirmation step; the form on it posts below (issue 34).
  app.get("/keys/rotate", async (c) => {
    const account = must(await callApi(c, api, market("/account"), accountSchema));
    return c.html(renderPage(KeyRotationPage({
      frame: BUYER_FRAME,
      who: c.get("who"),
      section: "keys",
      what: "API key",
      hint: account.keyHint ?? null,
      usedBy: "on the REST, MCP, A2A and marketplace APIs",
      action: "/buyer/keys/rotate",
      cancelHref: "/buyer/keys",
    })));
  });

  app.post("/keys/rotate", formLimit, async (c) => {
    const f = await readForm(c);
    const rotated = await send(c, api, f, market("/rotate-key"), {
      method: "POST",
    }, rotateKeyResponseSchema);
    if (!rotated.ok) {
      return refused(c, { form: "rotate", problem: rotated.problem! }, rotated.status);
    }
    // Shown on a page of its own after a redirect: a reload neither rotates again nor shows it.
    const material = c.get("who").csrfToken;
    return await redirectToShowOnce(c, deps, "/buyer/keys/new", material, rotated.body.apiKey);
  });

  app.get("/keys/new", async (c) => {
    const newKey = await takeShownOnce(c, c.get("who").csrfToken);
    if (!newKey) return c.redirect("/buyer/keys", 303);
    return render(c, { newKey, notice: "New key issued; the old one no longer works." });
  });

  app.post("/keys/password", formLimit, async (c) => {
    const f = await readForm(c);
    const saved = await send(c, api, f, market("/password"), {
      method: "PUT",
      // Passwords go as typed: no trimming.
      json: {
        password: field(f, "password"),
        currentPassword: field(f, "currentPassword") || undefined,
      },
    });
    if (!saved.ok) {
      const { top, field } = formProblem(saved, PASSWORD_FIELDS);
      return refused(c, { form: "password", problem: top ?? "", field }, saved.status);
    }
    return doneRedirect(c, "/buyer/keys", "password");
  });

  app.post("/keys/clients", formLimit, async (c) => {
    const f = await readForm(c);
    const clientId = field(f, "clientId").trim();
    const bound = await send(c, api, f, market("/clients"), { method: "POST", json: { clientId } });
    if (!bound.ok) {
      return refused(c, { form: "client", problem: bound.problem!, clientId }, bound.status);
    }
    return doneRedirect(c, "/buyer/keys", "client");
  });
  return app;
}
