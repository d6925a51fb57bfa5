/** /publisher/articles: the catalog over GET/PATCH /api/publisher/articles and (un)publish. */
import { type Context, Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { ArticlesPage } from "../../../ui/console/articles.tsx";
import { articlePageSchema } from "../../surfaces/manage/openapi_schemas.ts";
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
};

type Filters = Parameters<typeof ArticlesPage>[0]["filters"];

function filtersOf(params: URLSearchParams): Filters {
  return {
    q: params.get("q") ?? "",
    policy: params.get("policy") ?? "",
    kind: params.get("kind") ?? "",
    published: params.get("published") ?? "",
    country: (params.get("country") ?? "").toUpperCase(),
    offset: Number(params.get("offset") ?? 0) || 0,
  };
}

/** The articles page. */
export function articlesPages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();

  /** The list under `filters`, with the problem of a refused form above it. */
  const list = async (
    c: Context<ConsoleEnv>,
    filters: Filters,
    problem: string | null,
    status = 200,
  ) => {
    const query = new URLSearchParams({ limit: "50" });
    for (const [k, v] of Object.entries(filters)) if (v) query.set(k, String(v));
    const answer = await callApi(c, api, `/api/publisher/articles?${query}`, articlePageSchema);
    const page = answer.ok ? answer.body : { articles: [], total: 0, limit: 50, nextOffset: null };
    const link = await siteLinks(c, api);
    page.articles = page.articles.map((a) => ({ ...a, url: link(a.url) }));
    return c.html(
      renderPage(ArticlesPage({
        who: c.get("who"),
        ...page,
        filters,
        notice: noticeOf(c, NOTICES),
        problem: problem ?? answer.problem,
      })),
      problem ? refusalStatus(status) : answer.ok ? 200 : refusalStatus(answer.status),
    );
  };

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
function backOf(f: Fields): string {
  const back = field(f, "back");
  return /^\/publisher\/articles(\?[A-Za-z0-9=&%+._-]*)?$/.test(back)
    ? back
    : "/publisher/articles";
}
