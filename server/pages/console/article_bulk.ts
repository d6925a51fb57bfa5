/**
 * POST /publisher/articles/defaults and /publisher/articles/bulk (issue 34): the terms new
 * articles get (PUT /api/publisher/article-defaults), and a change of policy and price for many
 * articles (POST /api/publisher/articles/bulk): first a dry run whose count the visitor confirms,
 * then the change. A refused form comes back with its problem beside the field.
 */
import { Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { BulkConfirmPage } from "../../../ui/console/article_bulk.tsx";
import { articleBulkResultSchema } from "../../surfaces/manage/article_bulk_schemas.ts";
import { formatRate } from "../../platform/money.ts";
import type { ApiFetch } from "../kit/api.ts";
import { type FieldMap, fieldProblem, formProblem } from "../kit/field_errors.ts";
import {
  cents,
  checked,
  doneRedirect,
  field,
  type Fields,
  formLimit,
  readForm,
  send,
} from "../kit/forms.ts";
import type { ConsoleEnv } from "../kit/session.ts";
import { articleList, backOf, filtersOf } from "./articles.ts";

const DEFAULT_FIELDS: FieldMap = {
  policy: { name: "policy", label: "Policy of new articles" },
  priceUsdCents: {
    name: "priceUsd",
    label: "Price per read of new articles",
    plain: "enter an amount in dollars, such as 0.05",
    cents: true,
  },
};

const BULK_FIELDS: FieldMap = {
  ids: { name: "scope", label: "Which articles" },
  filter: { name: "scope", label: "Which articles" },
  set: { name: "policy", label: "Set policy to" },
  "set.policy": { name: "policy", label: "Set policy to" },
  "set.priceUsdCents": {
    name: "priceUsd",
    label: "Set price per read",
    plain: "enter an amount in dollars, such as 0.05",
    cents: true,
  },
};

/** The API's selection and change from the bulk form's fields. */
function bulkBody(f: Fields) {
  const ids = f.ids === undefined ? [] : Array.isArray(f.ids) ? f.ids : [f.ids];
  const filter: Record<string, unknown> = {};
  for (const k of ["q", "policy", "kind", "country"]) {
    const v = field(f, `f_${k}`);
    if (v) filter[k] = v;
  }
  const published = field(f, "f_published");
  if (published) filter.published = published === "true";
  const set: Record<string, unknown> = {};
  if (field(f, "policy")) set.policy = field(f, "policy");
  if (checked(f, "clearPrice")) set.priceUsdCents = null;
  else if (cents(f, "priceUsd") !== undefined) set.priceUsdCents = cents(f, "priceUsd");
  const byFilter = field(f, "scope") === "filter";
  return { ...(byFilter ? { filter } : { ids }), set };
}

/** The change in words, for the confirmation. */
function words(set: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof set.policy === "string") parts.push(`policy ${set.policy}`);
  if (set.priceUsdCents === null) parts.push("no price of their own");
  if (typeof set.priceUsdCents === "number") {
    parts.push(`price ${formatRate(set.priceUsdCents)} per read`);
  }
  return parts.join(" and ");
}

/** The defaults and bulk forms. */
export function articleBulkPages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();

  app.post("/articles/defaults", formLimit, async (c) => {
    const f = await readForm(c);
    const saved = await send(c, api, f, "/api/publisher/article-defaults", {
      method: "PUT",
      json: { policy: field(f, "policy"), priceUsdCents: cents(f, "priceUsd") ?? null },
    });
    if (saved.ok) return doneRedirect(c, "/publisher/articles", "defaults");
    return articleList(c, api, filtersOf(new URLSearchParams()), {
      form: "defaults",
      problem: formProblem(saved, DEFAULT_FIELDS),
    }, saved.status);
  });

  app.post("/articles/bulk", formLimit, async (c) => {
    const f = await readForm(c);
    const back = backOf(f);
    const body = bulkBody(f);
    const refuse = (problem: ReturnType<typeof formProblem>, status = 400) =>
      articleList(c, api, filtersOf(new URL(back, c.req.url).searchParams), {
        form: "bulk",
        problem,
      }, status);
    if ("ids" in body && body.ids.length === 0) {
      return refuse(fieldProblem(
        BULK_FIELDS.ids,
        "tick at least one article in the list, or choose all the filters match",
      ));
    }
    const confirm = field(f, "confirm") === "1";
    const answer = await send(c, api, f, "/api/publisher/articles/bulk", {
      method: "POST",
      json: { ...body, dryRun: !confirm },
    }, articleBulkResultSchema);
    if (!answer.ok) return refuse(formProblem(answer, BULK_FIELDS), answer.status);
    if (confirm) {
      const url = new URL(back, c.req.url);
      url.searchParams.set("n", String(answer.body.changed));
      return doneRedirect(c, `${url.pathname}${url.search}`, "bulk");
    }
    const carried = Object.entries(f).flatMap(([k, v]) =>
      k === "_csrf" || k === "confirm" ? [] : (Array.isArray(v) ? v : [v]).map((x) => [k, x])
    ) as [string, string][];
    return c.html(renderPage(BulkConfirmPage({
      who: c.get("who"),
      matched: answer.body.matched,
      changed: answer.body.changed,
      what: words(body.set),
      fields: carried,
      back,
    })));
  });
  return app;
}
