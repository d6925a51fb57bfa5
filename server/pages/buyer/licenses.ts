/**
 * /buyer/licenses: GET /api/marketplace/licenses (publisher names from the catalog); cancel is
 * confirmed first: /buyer/licenses/<id>/cancel shows what canceling does (GET .../cancel of the
 * API) and its form, with `confirm=yes`, calls POST /api/marketplace/licenses/<id>/cancel.
 */
import { type Context, Hono } from "hono";
import { LicensesPage, type LicenseView } from "../../../ui/buyer/licenses.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { catalogSchema, licenseListSchema } from "../../surfaces/marketplace/schemas.ts";
import { cancelEffectSchema } from "../../surfaces/marketplace/offer_schemas.ts";
import { CancelPage } from "../../../ui/buyer/cancel.tsx";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { doneRedirect, field, formLimit, noticeOf, readForm, send } from "../kit/forms.ts";
import { must, pageOf, pageStatus, segment } from "../kit/pages.ts";
import { type BuyerEnv, market } from "./site.ts";

/** Licenses per page. */
const PAGE_SIZE = 25;

const NOTICES: Record<string, string> = {
  licensed: "Licensed: reads of its use cases are covered from now on.",
  canceled: "License canceled: it stays active until the date shown, then ends.",
};

const ORDER: Record<LicenseView["state"], number> = {
  pending: 0,
  active: 1,
  expired: 2,
  canceled: 3,
};

/** The licenses page and the cancel form. */
export function licensesPages(api: ApiFetch): Hono<BuyerEnv> {
  const app = new Hono<BuyerEnv>();
  const render = async (
    c: Context<BuyerEnv>,
    failed: { licenseId: string; problem: string } | null = null,
    status = 200,
  ) => {
    const [licenses, catalog] = await Promise.all([
      callApi(c, api, market("/licenses"), licenseListSchema).then(must),
      callApi(c, api, market("/catalog"), catalogSchema).then(must),
    ]);
    const sorted = [...licenses.licenses].sort((a, b) =>
      ORDER[a.state] - ORDER[b.state] || b.createdAt.localeCompare(a.createdAt)
    );
    const shown = pageOf(sorted, c.req.query("page"), PAGE_SIZE);
    return c.html(
      renderPage(LicensesPage({
        who: c.get("who"),
        licenses: shown.items,
        names: Object.fromEntries(catalog.publishers.map((p) => [p.publisherId, p.name])),
        total: sorted.length,
        page: shown.page,
        pages: shown.pages,
        notice: noticeOf(c, NOTICES),
        failed,
      })),
      pageStatus(status),
    );
  };

  app.get("/licenses", (c) => render(c));

  const confirmPage = async (c: Context<BuyerEnv>, problem: string | null, status = 200) => {
    const licenseId = c.req.param("licenseId")!;
    const [preview, catalog] = await Promise.all([
      callApi(c, api, market(`/licenses/${segment(licenseId)}/cancel`), cancelEffectSchema),
      callApi(c, api, market("/catalog"), catalogSchema).then(must),
    ]);
    const license = must(preview);
    const name = catalog.publishers.find((p) => p.publisherId === license.publisherId)?.name;
    return c.html(
      renderPage(CancelPage({
        who: c.get("who"),
        license,
        publisherName: name ?? license.publisherId,
        problem,
      })),
      pageStatus(status),
    );
  };

  app.get("/licenses/:licenseId/cancel", (c) => confirmPage(c, null));

  app.post("/licenses/:licenseId/cancel", formLimit, async (c) => {
    const licenseId = c.req.param("licenseId");
    const f = await readForm(c);
    // Nothing is canceled without the confirmation page's answer.
    if (field(f, "confirm") !== "yes") {
      return confirmPage(c, "Not canceled: confirm below to cancel the license.", 400);
    }
    const answer = await send(c, api, f, market(`/licenses/${segment(licenseId)}/cancel`), {
      method: "POST",
    });
    if (!answer.ok) return render(c, { licenseId, problem: answer.problem! }, answer.status);
    return doneRedirect(c, "/buyer/licenses", "canceled");
  });
  return app;
}
