/**
 * Articles: search and filter the catalog, see the policy and price the rules make effective (and
 * which rule decided), override one article's policy or price, unpublish and publish again.
 */
import type { z } from "zod";
import type {
  decidedBySchema,
  managedArticleSchema,
} from "../../server/surfaces/manage/schemas.ts";
import { Scroll } from "./scroll.tsx";
import { ConsoleShell, count, CsrfField, When, type Who } from "./shell.tsx";
import { formatRate, usdField } from "../../server/platform/money.ts";
import type { FieldProblem } from "../field_error.tsx";
import { type ArticleDefaults, BulkForm, DefaultsForm } from "./article_bulk.tsx";

/** What decided an article's effective policy and price. */
export type DecidedBy = z.output<typeof decidedBySchema>;

/** An article as GET /api/publisher/articles lists it. */
export type ArticleRow = z.output<typeof managedArticleSchema>;

/** The filters of the list, echoed into the form and the pager. */
export interface ArticleFilters {
  q: string;
  policy: string;
  kind: string;
  published: string;
  country: string;
  offset: number;
}

/** GET /publisher/articles. */
export function ArticlesPage(props: {
  who: Who;
  articles: ArticleRow[];
  total: number;
  limit: number;
  nextOffset: number | null;
  filters: ArticleFilters;
  /** The terms new articles get (null: the API did not say). */
  defaults?: ArticleDefaults | null;
  notice?: string | null;
  problem?: string | null;
  /** A refused defaults or bulk form's problem, beside its field. */
  fieldProblem?: FieldProblem | null;
  /** Which of the two forms `fieldProblem` is about. */
  problemForm?: "defaults" | "bulk";
}) {
  const f = props.filters;
  const link = (offset: number) => {
    const p = new URLSearchParams();
    if (f.q) p.set("q", f.q);
    if (f.policy) p.set("policy", f.policy);
    if (f.kind) p.set("kind", f.kind);
    if (f.published) p.set("published", f.published);
    if (f.country) p.set("country", f.country);
    if (offset) p.set("offset", String(offset));
    const s = p.toString();
    return `/publisher/articles${s ? `?${s}` : ""}`;
  };
  const back = link(f.offset);
  return (
    <ConsoleShell
      who={props.who}
      section="articles"
      title="Articles"
      notice={props.notice}
      problem={props.problem}
    >
      {props.defaults
        ? (
          <DefaultsForm
            who={props.who}
            defaults={props.defaults}
            problem={props.problemForm === "defaults" ? props.fieldProblem : null}
          />
        )
        : null}
      <form method="get" action="/publisher/articles" class="card row" role="search">
        <div>
          <label for="q">Search titles and URLs</label>
          <input id="q" name="q" type="search" value={f.q} maxLength={200} />
        </div>
        <div>
          <label for="policy">Effective policy</label>
          <select id="policy" name="policy">
            {["", "OBSERVE", "PAYWALL", "BLOCKED"].map((p) => (
              <option key={p} value={p} selected={f.policy === p}>{p || "any"}</option>
            ))}
          </select>
        </div>
        <div>
          <label for="kind">Kind</label>
          <select id="kind" name="kind">
            {[["", "any"], ["article", "articles"], ["chapter", "book chapters"]].map(([v, l]) => (
              <option key={v} value={v} selected={f.kind === v}>{l}</option>
            ))}
          </select>
        </div>
        <div>
          <label for="published">Published</label>
          <select id="published" name="published">
            {[["", "any"], ["true", "published"], ["false", "unpublished"]].map(([v, l]) => (
              <option key={v} value={v} selected={f.published === v}>{l}</option>
            ))}
          </select>
        </div>
        <div>
          <label for="country">Reader's country</label>
          <input
            id="country"
            name="country"
            type="text"
            maxLength={2}
            size={3}
            style="width:5rem"
            value={f.country}
            aria-describedby="country-hint"
          />
          <span class="hint" id="country-hint" hidden>
            Two letters; territory rules then apply as for a reader there.
          </span>
        </div>
        <div style="align-self:flex-end">
          <button type="submit">Filter</button>
        </div>
      </form>
      <p class="muted small">
        {count(props.total)}{" "}
        {props.total === 1 ? "match" : "matches"}. OBSERVE: agents read freely. PAYWALL: licensed
        agents pay the price; others get a few free reads, then a summary and how to license.
        BLOCKED: agents get nothing but the title and your terms.
        {props.total > 0
          ? (
            <>
              {" "}
              <a href="#bulk">Change many articles at once</a>.
            </>
          )
          : null}
      </p>
      {props.articles.length === 0
        ? (
          <p class="card muted">
            {f.q || f.policy || f.kind || f.published || f.country
              ? "No article matches these filters."
              : "No articles yet: upload a CSV under Sources & jobs, or a book."}
          </p>
        )
        : (
          <div class="card">
            <Scroll label="Articles">
              <table>
                <thead>
                  <tr>
                    <th scope="col">
                      <span class="sr-only">Select</span>
                    </th>
                    <th scope="col">Article</th>
                    <th scope="col">Effective</th>
                    <th scope="col">Override</th>
                  </tr>
                </thead>
                <tbody>
                  {props.articles.map((a) => <Row key={a.id} who={props.who} a={a} back={back} />)}
                </tbody>
              </table>
            </Scroll>
          </div>
        )}
      <nav class="pager" aria-label="Pages">
        {f.offset > 0 && (
          <a href={link(Math.max(0, f.offset - props.limit))}>Previous {props.limit}</a>
        )}
        {props.nextOffset !== null && <a href={link(props.nextOffset)}>Next {props.limit}</a>}
      </nav>
      {props.total > 0
        ? (
          <BulkForm
            who={props.who}
            filters={f}
            total={props.total}
            back={back}
            problem={props.problemForm === "bulk" ? props.fieldProblem : null}
          />
        )
        : null}
    </ConsoleShell>
  );
}

function Row(props: { who: Who; a: ArticleRow; back: string }) {
  const { a } = props;
  const eff = a.effective;
  const published = a.published;
  return (
    <tr>
      <td>
        <input
          type="checkbox"
          name="ids"
          value={a.id}
          form="bulk"
          id={`sel-${a.id}`}
          aria-label={`Select “${a.title || a.url}”`}
        />
      </td>
      <td>
        <a href={a.url}>{a.title || a.url}</a>
        <div class="muted small">
          {a.kind === "chapter" ? "Chapter · " : ""}
          {a.author ? `${a.author} · ` : ""}
          {a.publishedAt ? <When iso={a.publishedAt} /> : "no date"}
          {published ? "" : " · unpublished"}
        </div>
      </td>
      <td>
        <span class={`tag ${eff.policy}`}>{eff.policy}</span>{" "}
        {eff.priceUsdCents !== null ? formatRate(eff.priceUsdCents) : ""}
        <div class="muted small">{decidedText(eff.decidedBy)}</div>
      </td>
      <td>
        <details>
          <summary>Change</summary>
          <form method="post" action={`/publisher/articles/${a.id}`}>
            <CsrfField token={props.who.csrfToken} />
            <input type="hidden" name="back" value={props.back} />
            <label for={`pol-${a.id}`}>Policy</label>
            <select id={`pol-${a.id}`} name="policy">
              {["OBSERVE", "PAYWALL", "BLOCKED"].map((p) => (
                <option key={p} value={p} selected={a.policy === p}>{p}</option>
              ))}
            </select>
            <label for={`price-${a.id}`}>Price per read (USD; empty: rules and defaults)</label>
            <input
              id={`price-${a.id}`}
              name="priceUsd"
              type="number"
              min="0"
              step="any"
              value={a.priceUsdCents === null ? "" : usdField(a.priceUsdCents)}
            />
            <p>
              <button type="submit">Save</button>
            </p>
          </form>
          <form
            method="post"
            action={`/publisher/articles/${a.id}/${published ? "unpublish" : "publish"}`}
          >
            <CsrfField token={props.who.csrfToken} />
            <input type="hidden" name="back" value={props.back} />
            <button type="submit" class={published ? "secondary" : undefined}>
              {published ? "Unpublish" : "Publish again"}
            </button>
          </form>
        </details>
      </td>
    </tr>
  );
}

/** "rule Premium", "this article's override", "your defaults". */
export function decidedText(
  d: DecidedBy,
  shown: { id: string; priority: number }[] = [],
): string {
  // A rule is named by its name; an unnamed one by its priority when shown, never by its id.
  if (d.kind === "rule" && d.ruleName) return `by rule “${d.ruleName}”`;
  if (d.kind === "rule") {
    const rule = shown.find((r) => r.id === d.ruleId);
    return rule ? `by the rule above, priority ${rule.priority}` : "by an unnamed rule";
  }
  if (d.kind === "article") return "by this article's override";
  return "by your defaults";
}
