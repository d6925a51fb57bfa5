/**
 * /publisher/playground: a query form whose POST calls POST /api/publisher/playground/passages
 * ({query, limit?}; the API runs retrieve_passages as a buyer would see it). The passages are read
 * from whatever fields the API returns; a refusal is shown beside the typed query.
 */
import { type Context, Hono } from "hono";
import { type PassageView, PlaygroundPage } from "../../../ui/console/playground.tsx";
import { formatRate } from "../../platform/money.ts";
import { renderPage } from "../../../ui/layout.tsx";
import { playgroundPassagesResponseSchema } from "../../surfaces/manage/openapi_schemas.ts";
import type { ApiFetch } from "../kit/api.ts";
import { field, formLimit, numeric, readForm, send } from "../kit/forms.ts";
import { must } from "../kit/pages.ts";
import type { ConsoleEnv } from "../kit/session.ts";
import { siteLinks } from "./site_links.ts";

type Refusal = 400 | 403 | 404 | 409 | 413 | 415 | 429;
const REFUSALS: readonly Refusal[] = [400, 403, 404, 409, 413, 415, 429];

/** The playground pages. */
export function playgroundPages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  const render = (
    c: Context<ConsoleEnv>,
    shown: { query?: string; limit?: string; passages?: PassageView[]; raw?: string },
    problem: string | null = null,
    status: 200 | Refusal = 200,
  ) =>
    c.html(
      renderPage(PlaygroundPage({
        who: c.get("who"),
        query: shown.query ?? "",
        limit: shown.limit ?? "",
        passages: shown.passages ?? null,
        raw: shown.raw ?? null,
        problem,
      })),
      status,
    );

  app.get("/playground", (c) => render(c, {}));

  app.post("/playground", formLimit, async (c) => {
    const f = await readForm(c);
    const query = field(f, "query");
    const limit = numeric(f, "limit");
    const answer = await send(c, api, f, "/api/publisher/playground/passages", {
      method: "POST",
      json: { query, limit },
    }, playgroundPassagesResponseSchema);
    const typed = { query, limit: field(f, "limit") };
    if (!answer.ok) {
      const status = REFUSALS.find((s) => s === answer.status);
      if (!status) must(answer);
      return render(c, typed, answer.problem, status ?? 400);
    }
    const link = await siteLinks(c, api);
    return render(c, {
      ...typed,
      passages: answer.body.results.map(passageOf).map((p) => ({
        ...p,
        url: p.url && link(p.url),
      })),
      raw: JSON.stringify(answer.body, null, 2),
    });
  });
  return app;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

/** One passage from whatever fields came: the article's or its own title and URL, text, score. */
export function passageOf(r: Json): PassageView {
  const article = isObject(r.article) ? r.article : {};
  const url = str(article.url) ?? str(r.url);
  return {
    title: str(article.title) ?? str(r.title) ?? "(untitled)",
    // Only web addresses become links.
    url: url && /^https?:\/\//i.test(url) ? url : null,
    text: str(r.text) ?? str(r.passage) ?? str(r.snippet) ?? "",
    score: typeof r.score === "number" && Number.isFinite(r.score) ? r.score : null,
    section: str(r.section),
    notes: licenseNotes(r),
  };
}

/** The license block and any note the API attached, in words. */
function licenseNotes(r: Json): string[] {
  const license = isObject(r.license) ? r.license : {};
  const notes: string[] = [];
  if (isObject(license.rights)) {
    const rights = Object.entries(license.rights);
    const of = (v: string) =>
      rights.filter(([, s]) => s === v).map(([k]) => k.replace("_", "-")).join(", ");
    const granted = of("granted");
    const denied = of("denied");
    notes.push(
      [granted && `granted: ${granted}`, denied && `denied: ${denied}`].filter(Boolean).join("; "),
    );
  }
  const prices = isObject(license.pricingUsdCents) ? license.pricingUsdCents : {};
  if (typeof prices.rag === "number") notes.push(`retrieval ${formatRate(prices.rag)} a read`);
  for (const note of [r.note, r.licenseNote, license.note, r.reason, r.outcome]) {
    const s = str(note);
    if (s) notes.push(s);
  }
  return notes.filter((n) => n !== "");
}
