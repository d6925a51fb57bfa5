/** /publisher/articles: the catalog over GET/PATCH /api/publisher/articles and (un)publish. */
import { type Context, Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { ArticlesPage } from "../../../ui/console/articles.tsx";
import { articlePageSchema } from "../../surfaces/manage/openapi_schemas.ts";
import { articleDefaultsSchema } from "../../surfaces/manage/article_bulk_schemas.ts";
import type { FormProblem } from "../kit/field_errors.ts";
import { plural } from "../../platform/words.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import {
  cents,
  doneRedirect,
  field,
  type Fields,
  formLimit,
  noticeOf,
  readForm,
  send,
} from "../kit/forms.ts";
import { refusalStatus, segment } from "../kit/pages.ts";
import type { ConsoleEnv } from "../kit/session.ts";
import { siteLinks } from "./site_links.ts";

const NOTICES: Record<string, string> = {
  saved: "Article saved.",
  unpublished: "Article unpublished: agents no longer find or read it.",
  published: "Article published again.",
  defaults: "Saved: new articles get this policy and price.",
};

/** The notice of `?done=`, with the count of a bulk change (`?done=bulk&n=12`). */
function notice(c: Context<ConsoleEnv>): string | null {
  const n = c.req.query("n") ?? "";
  if (c.req.query("done") === "bulk" && /^\d{1,6}$/.test(n)) {
    return `Changed the policy or price of ${plural(Number(n), "article")}.`;
  }
  return noticeOf(c, NOTICES);
}

type Filters = Parameters<typeof ArticlesPage>[0]["filters"];

/** The list's filters from its query string (or a form's `back`). */
export function filtersOf(params: URLSearchParams): Filters {
  return {
    q: params.get("q") ?? "",
    policy: params.get("policy") ?? "",
    kind: params.get("kind") ?? "",
    published: params.get("published") ?? "",
    country: (params.get("country") ?? "").toUpperCase(),
    offset: Number(params.get("offset") ?? 0) || 0,
  };
}

/**
 * The list under `filters`, with the problem of a refused form above it or beside its field
 * (`status` then is the refusal's).
 */
export async function articleList(
  c: Context<ConsoleEnv>,
  api: ApiFetch,
  filters: Filters,
  problem: string | { form: "defaults" | "bulk"; problem: FormProblem } | null,
  status = 200,
) {
  const query = new URLSearchParams({ limit: "50" });
  for (const [k, v] of Object.entries(filters)) if (v) query.set(k, String(v));
  const [answer, defaults, link] = await Promise.all([
    callApi(c, api, `/api/publisher/articles?${query}`, articlePageSchema),
    callApi(c, api, "/api/publisher/article-defaults", articleDefaultsSchema),
    siteLinks(c, api),
  ]);
  const page = answer.ok ? answer.body : { articles: [], total: 0, limit: 50, nextOffset: null };
  page.articles = page.articles.map((a) => ({ ...a, url: link(a.url) }));
  const top = typeof problem === "string" ? problem : problem?.problem.top ?? null;
  return c.html(
    renderPage(ArticlesPage({
      who: c.get("who"),
      ...page,
      filters,
      defaults: defaults.ok ? defaults.body : null,
      notice: notice(c),
      problem: top ?? answer.problem,
      fieldProblem: typeof problem === "object" ? problem?.problem.field ?? null : null,
      problemForm: typeof problem === "object" ? problem?.form : undefined,
    })),
    problem ? refusalStatus(status) : answer.ok ? 200 : refusalStatus(answer.status),
  );
}

/** The articles page. */
export function articlesPages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  const list = (c: Context<ConsoleEnv>, filters: Filters, problem: string | null, status = 200) =>
    articleList(c, api, filters, problem, status);

  app.get("/articles", (c) => list(c, filtersOf(new URL(c.req.url).searchParams), null));

  app.post("/articles/:id", formLimit, async (c) => {
    const f = await readForm(c);
    const saved = await send(c, api, f, `/api/publisher/articles/${segment(c.req.param("id"))}`, {
      method: "PATCH",
      json: {
        policy: field(f, "policy") || undefined,
        priceUsdCents: cents(f, "priceUsd") ?? null,
      },
    });
    if (saved.ok) return doneRedirect(c, backOf(f), "saved");
    return list(
      c,
      filtersOf(new URL(backOf(f), c.req.url).searchParams),
      saved.problem,
      saved.status,
    );
  });

  for (const action of ["unpublish", "publish"] as const) {
    app.post(`/articles/:id/${action}`, formLimit, async (c) => {
      const f = await readForm(c);
      const id = segment(c.req.param("id"));
      const done = await send(c, api, f, `/api/publisher/articles/${id}/${action}`, {
        method: "POST",
      });
      if (done.ok) return doneRedirect(c, backOf(f), `${action}ed`);
      return list(
        c,
        filtersOf(new URL(backOf(f), c.req.url).searchParams),
        done.problem,
        done.status,
      );
    });
  }
  return app;
}

/** The list the form came from (only a console articles URL). */
export function backOf(f: Fields): string {
  const back = field(f, "back");
  return /^\/publisher\/articles(\?[A-Za-z0-9=&%+._-]*)?$/.test(back)
    ? back
    : "/publisher/articles";
}
