/** /publisher/rules: content rules over /api/publisher/rules (list, create, edit, order, explain). */
import { type Context, Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import {
  type Explanation,
  formOf,
  RuleEditPage,
  type RuleForm,
  RulesPage,
} from "../../../ui/console/rules.tsx";
import { AppError } from "../../platform/errors.ts";
import { explainSchema, ruleListSchema } from "../../surfaces/manage/openapi_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import {
  cents,
  doneRedirect,
  field,
  type Fields,
  formLimit,
  noticeOf,
  numeric,
  readForm,
  send,
} from "../kit/forms.ts";
import { must, refusalStatus, segment } from "../kit/pages.ts";
import { type FieldMap, type FormProblem, formProblem, NO_PROBLEM } from "../kit/field_errors.ts";
import type { ConsoleEnv } from "../kit/session.ts";
import { siteLinks } from "./site_links.ts";

const NOTICES: Record<string, string> = {
  created: "Rule added.",
  saved: "Rule saved.",
  deleted: "Rule deleted.",
  ordered: "Order saved.",
};

const FORM_FIELDS = [
  "name",
  "priority",
  "path",
  "publishedWithinHours",
  "territories",
  "policy",
  "priceUsd",
  "windowStart",
  "windowEnd",
  "deny",
];

/** The rules API's inputs, by `param`, and the rule form's fields that fill them. */
const FIELDS: FieldMap = {
  name: { name: "name", label: "Name" },
  priority: { name: "priority", label: "Priority", plain: "enter a whole number, 0 or more" },
  "match.path": { name: "path", label: "Path" },
  "match.publishedWithinHours": {
    name: "publishedWithinHours",
    label: "Published within (hours)",
    plain: "enter a number of hours above 0",
  },
  "match.territories": { name: "territories", label: "Readers' countries" },
  "action.priceUsdCents": {
    name: "priceUsd",
    label: "Price per read (USD)",
    plain: "enter an amount in dollars, such as 0.05",
    cents: true,
  },
  action: {
    name: "policy",
    label: "Policy",
    plain: "choose a policy, set a price per read, or tick Deny",
  },
  "action.policy": { name: "policy", label: "Policy" },
  "action.deny": {
    name: "deny",
    label: "Deny reads",
    plain: "needs readers' countries, and no policy, price or time window",
  },
  "action.window": {
    name: "windowStart",
    label: "Price valid from",
    plain: "a time window bounds a price: fill in the price per read too",
  },
  "action.window.start": { name: "windowStart", label: "Price valid from" },
  "action.window.end": {
    name: "windowEnd",
    label: "Price valid until",
    plain: "must be after the start",
  },
};

/** The rule JSON of the rule form (the API validates; raw text goes through so it can say why). */
export function ruleOf(f: Fields) {
  const text = (name: string) => field(f, name).trim();
  const match: Record<string, unknown> = {};
  if (text("path")) match.path = text("path");
  const hours = numeric(f, "publishedWithinHours");
  if (hours !== undefined) match.publishedWithinHours = hours;
  if (text("territories")) {
    match.territories = text("territories").split(/[\s,]+/).filter(Boolean).map((t) =>
      t.toUpperCase()
    );
  }
  const action: Record<string, unknown> = {};
  if (field(f, "deny")) action.deny = true;
  if (text("policy")) action.policy = text("policy");
  const price = cents(f, "priceUsd");
  if (price !== undefined) action.priceUsdCents = price;
  if (text("windowStart") || text("windowEnd")) {
    action.window = { start: utc(text("windowStart")), end: utc(text("windowEnd")) };
  }
  return { name: text("name") || null, priority: numeric(f, "priority") ?? 0, match, action };
}

/** A datetime-local value (no zone) read as UTC, the zone the console speaks. */
function utc(local: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d$/.test(local) ? `${local}:00Z` : local;
}

function typed(f: Fields): RuleForm {
  return Object.fromEntries(FORM_FIELDS.map((k) => [k, field(f, k)]));
}

/** The rules pages. */
export function rulesPages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();

  const list = async (
    c: Context<ConsoleEnv>,
    form: RuleForm,
    problem: FormProblem,
    status = 200,
  ) => {
    const rules = must(await callApi(c, api, "/api/publisher/rules", ruleListSchema)).rules;
    const explainForm = {
      url: c.req.query("url") ?? "",
      country: c.req.query("country") ?? "",
      at: c.req.query("at") ?? "",
    };
    let explanation: Explanation | null = null;
    let explainProblem: string | null = null;
    if (c.req.method === "GET" && explainForm.url) {
      const q = new URLSearchParams({ url: explainForm.url });
      if (explainForm.country) q.set("country", explainForm.country.toUpperCase());
      if (explainForm.at) q.set("at", utc(explainForm.at));
      const answer = await callApi(c, api, `/api/publisher/rules/explain?${q}`, explainSchema);
      if (answer.ok) {
        const link = await siteLinks(c, api);
        const article = answer.body.article;
        explanation = {
          ...answer.body,
          article: article && { ...article, url: link(article.url) },
        };
      } else explainProblem = answer.problem;
    }
    return c.html(
      renderPage(RulesPage({
        who: c.get("who"),
        rules,
        form,
        explainForm,
        explanation,
        explainProblem,
        notice: noticeOf(c, NOTICES),
        problem: problem.top,
        fieldProblem: problem.field,
      })),
      problem.top || problem.field ? refusalStatus(status) : explainProblem ? 400 : 200,
    );
  };

  app.get("/rules", (c) => list(c, {}, NO_PROBLEM));

  app.post("/rules", formLimit, async (c) => {
    const f = await readForm(c);
    const created = await send(c, api, f, "/api/publisher/rules", {
      method: "POST",
      json: ruleOf(f),
    });
    return created.ok
      ? doneRedirect(c, "/publisher/rules", "created")
      : list(c, typed(f), formProblem(created, FIELDS), created.status);
  });

  app.post("/rules/order", formLimit, async (c) => {
    const f = await readForm(c);
    const ids = [f.ids ?? []].flat();
    const ordered = await send(c, api, f, "/api/publisher/rules/order", {
      method: "POST",
      json: { ids },
    });
    return ordered.ok
      ? doneRedirect(c, "/publisher/rules", "ordered")
      : list(c, {}, formProblem(ordered, {}), ordered.status);
  });

  const edit = async (
    c: Context<ConsoleEnv>,
    form: RuleForm | null,
    problem: FormProblem,
    status = 200,
  ) => {
    const rules = must(await callApi(c, api, "/api/publisher/rules", ruleListSchema)).rules;
    const rule = rules.find((r) => r.id === c.req.param("id"));
    if (!rule) throw new AppError(404, "not_found", "Rule was not found");
    return c.html(
      renderPage(RuleEditPage({
        who: c.get("who"),
        rule,
        form: form ?? formOf(rule),
        problem: problem.top,
        fieldProblem: problem.field,
      })),
      problem.top || problem.field ? refusalStatus(status) : 200,
    );
  };

  app.get("/rules/:id", (c) => edit(c, null, NO_PROBLEM));

  app.post("/rules/:id", formLimit, async (c) => {
    const f = await readForm(c);
    const saved = await send(c, api, f, `/api/publisher/rules/${segment(c.req.param("id"))}`, {
      method: "PATCH",
      json: ruleOf(f),
    });
    return saved.ok
      ? doneRedirect(c, "/publisher/rules", "saved")
      : edit(c, typed(f), formProblem(saved, FIELDS), saved.status);
  });

  app.post("/rules/:id/delete", formLimit, async (c) => {
    const f = await readForm(c);
    const deleted = await send(c, api, f, `/api/publisher/rules/${segment(c.req.param("id"))}`, {
      method: "DELETE",
    });
    return deleted.ok
      ? doneRedirect(c, "/publisher/rules", "deleted")
      : list(c, {}, formProblem(deleted, {}), deleted.status);
  });
  return app;
}
