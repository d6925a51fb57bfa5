/**
 * /buyer/crawlers: the buyer's Web Bot Auth key directories (GET /api/marketplace/signature-agents)
 * and the form that removes one (DELETE). Registering is not a portal form: the API takes it only
 * signed by the crawler itself with a key of the directory, so the page explains the call instead.
 */
import { type Context, Hono } from "hono";
import { CrawlersPage, type CrawlersProps } from "../../../ui/buyer/crawlers.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { signatureAgentsSchema } from "../../surfaces/marketplace/schemas.ts";
import { olpClientSchema, olpSecretSchema } from "../../surfaces/marketplace/olp_schemas.ts";
import type { AppDeps } from "../../deps.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { doneRedirect, field, formLimit, noticeOf, readForm, send } from "../kit/forms.ts";
import { must, pageStatus } from "../kit/pages.ts";
import { type BuyerEnv, market } from "./site.ts";

const NOTICES: Record<string, string> = {
  removed: "Key directory removed: signatures from it no longer pay as you.",
};

/** The crawlers page and its remove form. */
export function crawlersPages(deps: AppDeps, api: ApiFetch): Hono<BuyerEnv> {
  const app = new Hono<BuyerEnv>();
  const render = async (c: Context<BuyerEnv>, extra: Partial<CrawlersProps>, status = 200) => {
    const [{ agents }, olp] = await Promise.all([
      callApi(c, api, market("/signature-agents"), signatureAgentsSchema).then(must),
      callApi(c, api, market("/olp-client"), olpClientSchema).then(must),
    ]);
    return c.html(
      renderPage(CrawlersPage({
        who: c.get("who"),
        agents,
        olp,
        baseUrl: deps.config.baseUrl,
        notice: noticeOf(c, NOTICES),
        ...extra,
      })),
      pageStatus(status),
    );
  };

  app.get("/crawlers", (c) => render(c, {}));

  // Issues or rotates the license-server secret; it is shown in the answer to this post only, so
  // a reload does not issue another (as the API key's rotation, server/pages/buyer/keys.ts).
  app.post("/crawlers/olp", formLimit, async (c) => {
    const f = await readForm(c);
    const issued = await send(
      c,
      api,
      f,
      market("/olp-client"),
      { method: "POST" },
      olpSecretSchema,
    );
    if (!issued.ok) return render(c, { failed: issued.problem! }, issued.status);
    c.header("Cache-Control", "no-store");
    return render(c, {
      newSecret: { clientId: issued.body.clientId, secret: issued.body.clientSecret },
      notice: "New license server secret issued; the old one no longer works.",
    });
  });

  app.post("/crawlers/remove", formLimit, async (c) => {
    const f = await readForm(c);
    const agent = field(f, "agent");
    const removed = await send(
      c,
      api,
      f,
      market(`/signature-agents?agent=${encodeURIComponent(agent)}`),
      { method: "DELETE" },
    );
    if (!removed.ok) return render(c, { failed: removed.problem! }, removed.status);
    return doneRedirect(c, "/buyer/crawlers", "removed");
  });
  return app;
}
