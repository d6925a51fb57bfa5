/**
 * The Articles page's many-at-once tools (issue 34): the policy and price new articles get, and a
 * change of policy and price for the ticked articles or for every article the filters match,
 * confirmed on a page that says how many will change before anything does. Plain forms: the
 * checkboxes join the bulk form by its id (HTML's `form` attribute), so no JavaScript is needed.
 */
import type { z } from "zod";
import type { articleDefaultsSchema } from "../../server/surfaces/manage/article_bulk_schemas.ts";
import { formatRate, usdField } from "../../server/platform/money.ts";
import { plural } from "../../server/platform/words.ts";
import { FieldError, type FieldProblem, invalidIf } from "../field_error.tsx";
import type { ArticleFilters } from "./articles.tsx";
import { ConsoleShell, count, CsrfField, type Who } from "./shell.tsx";

/** GET /api/publisher/article-defaults. */
export type ArticleDefaults = z.output<typeof articleDefaultsSchema>;

const POLICIES = ["OBSERVE", "PAYWALL", "BLOCKED"] as const;

/** The filters as hidden fields, so a bulk change by filter selects what the list shows. */
function FilterFields(props: { filters: ArticleFilters }) {
  const f = props.filters;
  return (
    <>
      {(["q", "policy", "kind", "published", "country"] as const).map((k) =>
        f[k] ? <input key={k} type="hidden" name={`f_${k}`} value={f[k]} /> : null
      )}
    </>
  );
}

/** The card of the terms new articles get. */
export function DefaultsForm(
  props: { who: Who; defaults: ArticleDefaults; problem?: FieldProblem | null },
) {
  const d = props.defaults;
  const p = props.problem;
  return (
    <details class="card defaults" open={!!p}>
      <summary>
        <strong>New articles get:</strong> <span class={`tag ${d.policy}`}>{d.policy}</span>
        {d.priceUsdCents !== null ? ` at ${formatRate(d.priceUsdCents)} per read` : ""}
      </summary>
      <form method="post" action="/publisher/articles/defaults">
        <CsrfField token={props.who.csrfToken} />
        <p class="hint">
          What an article new to your catalog gets when it is ingested (CSV uploads, site sync,
          books). Articles you have now keep theirs: change them below.
        </p>
        <label for="default-policy">Policy of new articles</label>
        <select id="default-policy" name="policy" {...invalidIf(p, "policy")}>
          {POLICIES.map((x) => <option key={x} value={x} selected={d.policy === x}>{x}</option>)}
        </select>
        <FieldError problem={p} name="policy" />
        <label for="default-price">Price per read of new articles (USD; empty: your prices)</label>
        <input
          id="default-price"
          name="priceUsd"
          type="number"
          min="0"
          step="any"
          value={d.priceUsdCents === null ? "" : usdField(d.priceUsdCents)}
          {...invalidIf(p, "priceUsd")}
        />
        <FieldError problem={p} name="priceUsd" />
        <p>
          <button type="submit">Save defaults</button>
        </p>
      </form>
    </details>
  );
}

/** The form the rows' checkboxes belong to (`form="bulk"`). */
export function BulkForm(
  props: {
    who: Who;
    filters: ArticleFilters;
    total: number;
    back: string;
    problem?: FieldProblem | null;
  },
) {
  const p = props.problem;
  return (
    <form method="post" action="/publisher/articles/bulk" id="bulk" class="card">
      <h2>Change many articles</h2>
      <CsrfField token={props.who.csrfToken} />
      <input type="hidden" name="back" value={props.back} />
      <FilterFields filters={props.filters} />
      <fieldset {...invalidIf(p, "scope")}>
        <legend>Which articles</legend>
        <label class="check">
          <input type="radio" name="scope" value="selected" checked />
          The articles ticked in the list above
        </label>
        <label class="check">
          <input type="radio" name="scope" value="filter" />
          All {plural(props.total, "article", { shown: count(props.total) })}{" "}
          the filters match (every page)
        </label>
      </fieldset>
      <FieldError problem={p} name="scope" />
      <div class="row">
        <div>
          <label for="bulk-policy">Set policy to</label>
          <select id="bulk-policy" name="policy" {...invalidIf(p, "policy")}>
            <option value="">(keep each article's)</option>
            {POLICIES.map((x) => <option key={x} value={x}>{x}</option>)}
          </select>
          <FieldError problem={p} name="policy" />
        </div>
        <div>
          <label for="bulk-price">Set price per read (USD)</label>
          <input
            id="bulk-price"
            name="priceUsd"
            type="number"
            min="0"
            step="any"
            {...invalidIf(p, "priceUsd", "bulk-price-hint")}
          />
          <span class="hint" id="bulk-price-hint">Empty: keep each article's price.</span>
          <FieldError problem={p} name="priceUsd" />
        </div>
      </div>
      <label class="check">
        <input type="checkbox" name="clearPrice" value="1" />
        Remove their own prices instead (your per-use prices and rules apply)
      </label>
      <p>
        <button type="submit">Review the change</button>
      </p>
    </form>
  );
}

/** What the confirmation page shows and carries on to the change. */
export interface BulkConfirmProps {
  who: Who;
  matched: number;
  changed: number;
  /** The change in words: "policy PAYWALL, price $0.05 per read". */
  what: string;
  /** The form's fields to send again with `confirm`. */
  fields: [string, string][];
  back: string;
}

/** POST /publisher/articles/bulk before it is confirmed: how many articles will change. */
export function BulkConfirmPage(props: BulkConfirmProps) {
  const none = props.changed === 0;
  return (
    <ConsoleShell who={props.who} section="articles" title="Change many articles">
      <section class="card" aria-labelledby="confirm-title">
        <h2 id="confirm-title">
          {none
            ? "Nothing to change"
            : `Change ${plural(props.changed, "article", { shown: count(props.changed) })}?`}
        </h2>
        <p>
          You selected {plural(props.matched, "article", { shown: count(props.matched) })}. Setting
          {" "}
          {props.what} {none
            ? "changes none of them: they have these terms already."
            : `changes ${count(props.changed)} of them${
              props.matched > props.changed
                ? `; ${count(props.matched - props.changed)} have these terms already`
                : ""
            }. Agents get the new terms on their next read.`}
        </p>
        {none
          ? <a href={props.back}>Back to the articles</a>
          : (
            <form method="post" action="/publisher/articles/bulk" class="row">
              <CsrfField token={props.who.csrfToken} />
              {props.fields.map(([k, v], i) => <input key={i} type="hidden" name={k} value={v} />)}
              <input type="hidden" name="confirm" value="1" />
              <button type="submit">
                Change {plural(props.changed, "article", { shown: count(props.changed) })}
              </button>
              <a href={props.back}>Cancel</a>
            </form>
          )}
      </section>
    </ConsoleShell>
  );
}
