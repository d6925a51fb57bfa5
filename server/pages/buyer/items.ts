/**
 * /buyer/items: the buyer's charge items (GET /api/marketplace/items) with the API's own filters
 * in a GET form, cursor paging and the CSV (GET /items/csv) as a download; a statement line's
 * "Items" link lands here with that line's filters. A filter the API refuses is shown beside the
 * form (400), with no table.
 */
import { Hono } from "hono";
import { ItemsPage } from "../../../ui/buyer/items.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { itemPageSchema } from "../../surfaces/marketplace/item_schemas.ts";
import { catalogSchema } from "../../surfaces/marketplace/schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { must } from "../kit/pages.ts";
import { type BuyerEnv, market } from "./site.ts";

/** The filters the page passes on to the API, in the form's order. */
export const ITEM_FILTERS = [
  "from",
  "to",
  "publisherId",
  "use",
  "surface",
  "kind",
  "statementMonth",
  "usageMonth",
  "prepaid",
] as const;
const PAGE_SIZE = 50;

/** The items page and its CSV. */
export function itemsPages(api: ApiFetch): Hono<BuyerEnv> {
  const app = new Hono<BuyerEnv>();
  const filtersOf = (query: Record<string, string>) => {
    const out = new URLSearchParams();
    for (const k of ITEM_FILTERS) if (query[k]) out.set(k, query[k]);
    return out;
  };

  app.get("/items.csv", async (c) => {
    const csv = await callApi(c, api, market(`/items/csv?${filtersOf(c.req.query())}`), null);
    must(csv);
    return c.body(csv.text, 200, {
      "Content-Disposition": 'attachment; filename="folio-items.csv"',
      "Content-Type": "text/csv; charset=utf-8",
      "Cache-Control": "no-store",
    });
  });

  app.get("/items", async (c) => {
    const query = c.req.query();
    const filters = filtersOf(query);
    const ask = new URLSearchParams(filters);
    ask.set("limit", String(PAGE_SIZE));
    if (query.cursor) ask.set("cursor", query.cursor);
    const [answer, catalog] = await Promise.all([
      callApi(c, api, market(`/items?${ask}`), itemPageSchema),
      callApi(c, api, market("/catalog"), catalogSchema).then(must),
    ]);
    const refused = answer.status === 400 ? answer.problem : null;
    return c.html(
      renderPage(ItemsPage({
        who: c.get("who"),
        filters: Object.fromEntries(filters),
        publishers: catalog.publishers.map((p) => ({ id: p.publisherId, name: p.name })),
        page: refused ? null : must(answer),
        paged: Boolean(query.cursor),
        problem: refused,
      })),
      refused ? 400 : 200,
    );
  });
  return app;
}
