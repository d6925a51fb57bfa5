/**
 * Content rules: the list in evaluation order with each rule in words, create, edit, reorder,
 * delete, and "which rule applies to this URL, country and time".
 */
import type { z } from "zod";
import type { explainSchema } from "../../server/surfaces/manage/openapi_schemas.ts";
import type { ruleSchema } from "../../server/surfaces/manage/schemas.ts";
import { decidedText } from "./articles.tsx";
import { FieldError, type FieldProblem, invalidIf } from "../field_error.tsx";
import { ConsoleShell, CsrfField, when, type Who } from "./shell.tsx";
import { formatRate, usdField } from "../../server/platform/money.ts";
import { plural } from "../../server/platform/words.ts";

/** A rule as GET /api/publisher/rules lists it. */
export type RuleView = z.output<typeof ruleSchema>;

/** The rule form's values (as typed). */
export type RuleForm = Record<string, string>;

/** The answer of GET /api/publisher/rules/explain, shown as the page reads it. */
export type Explanation = z.output<typeof explainSchema>;

/** A rule in one sentence. */
export function ruleText(r: RuleView): string {
  const where: string[] = [];
  if (r.match.path) where.push(`under ${r.match.path}`);
  if (r.match.publishedWithinHours) {
    where.push(`published in the last ${plural(r.match.publishedWithinHours, "hour")}`);
  }
  if (r.match.territories?.length) where.push(`read from ${r.match.territories.join(", ")}`);
  // The name leads every rule's sentence, whatever the rule does (issue 34).
  const named = r.name ? `${r.name}: ` : "";
  const subject = `${named}Articles${where.length ? ` ${where.join(", ")}` : " (all)"}`;
  if (r.action.deny) return `${subject}: denied in those countries.`;
  const does: string[] = [];
  if (r.action.policy) does.push(r.action.policy);
  if (r.action.priceUsdCents !== undefined) {
    does.push(`${formatRate(r.action.priceUsdCents)} per read`);
  }
  const window = r.action.window
    ? ` from ${when(r.action.window.start)} to ${when(r.action.window.end)}`
    : "";
  return `${subject}: ${does.join(" at ")}${window}.`;
}

/** The form values of a stored rule (for editing). */
export function formOf(r: RuleView): RuleForm {
  return {
    name: r.name ?? "",
    priority: String(r.priority),
    path: r.match.path ?? "",
    publishedWithinHours: r.match.publishedWithinHours ? String(r.match.publishedWithinHours) : "",
    territories: (r.match.territories ?? []).join(", "),
    policy: r.action.policy ?? "",
    priceUsd: r.action.priceUsdCents === undefined ? "" : usdField(r.action.priceUsdCents),
    windowStart: r.action.window?.start.slice(0, 16) ?? "",
    windowEnd: r.action.window?.end.slice(0, 16) ?? "",
    deny: r.action.deny ? "on" : "",
  };
}

/** GET /publisher/rules. */
export function RulesPage(props: {
  who: Who;
  rules: RuleView[];
  form: RuleForm;
  explainForm: Record<string, string>;
  explanation: Explanation | null;
  explainProblem?: string | null;
  notice?: string | null;
  problem?: string | null;
  /** The problem of the add form's field, shown beside it. */
  fieldProblem?: FieldProblem | null;
}) {
  const nextPriority = (props.rules.at(-1)?.priority ?? 0) + 10;
  return (
    <ConsoleShell
      who={props.who}
      section="rules"
      title="Rules"
      notice={props.notice}
      problem={props.problem}
    >
      <p class="muted">
        Rules change the policy or price of the articles they match, in order: the first matching
        rule sets the policy and price; denials by country always apply. A price set on an article
        itself wins over every rule.
      </p>
      <section class="card" aria-labelledby="list-title">
        <h2 id="list-title">Your rules, in evaluation order</h2>
        {props.rules.length === 0
          ? (
            <p class="muted">
              No rules: every article follows its own policy and your default prices.
            </p>
          )
          : (
            <ol>
              {props.rules.map((r, i) => (
                <li key={r.id}>
                  <p style="margin:.2rem 0">
                    {ruleText(r)} <span class="muted small">(priority {r.priority})</span>
                  </p>
                  <div class="row small">
                    <a href={`/publisher/rules/${r.id}`}>Edit</a>
                    {i > 0 && <Move who={props.who} rules={props.rules} index={i} by={-1} />}
                    {i < props.rules.length - 1 && (
                      <Move who={props.who} rules={props.rules} index={i} by={1} />
                    )}
                    <form method="post" action={`/publisher/rules/${r.id}/delete`} class="inline">
                      <CsrfField token={props.who.csrfToken} />
                      <button
                        type="submit"
                        class="secondary"
                        aria-label={`Delete rule: ${ruleText(r)}`}
                      >
                        Delete
                      </button>
                    </form>
                  </div>
                </li>
              ))}
            </ol>
          )}
      </section>
      <section class="card" aria-labelledby="new-title">
        <h2 id="new-title">Add a rule</h2>
        <RuleFields
          who={props.who}
          action="/publisher/rules"
          values={{ priority: String(nextPriority), ...props.form }}
          submit="Add rule"
          problem={props.fieldProblem}
        />
      </section>
      <section class="card" aria-labelledby="explain-title">
        <h2 id="explain-title">Which rule applies?</h2>
        <form method="get" action="/publisher/rules">
          <label for="ex-url">Article URL or path</label>
          <input id="ex-url" name="url" type="text" required value={props.explainForm.url ?? ""} />
          <label for="ex-country">Reader's country (two letters, optional)</label>
          <input
            id="ex-country"
            name="country"
            type="text"
            maxLength={2}
            value={props.explainForm.country ?? ""}
          />
          <label for="ex-at">At (UTC, optional; now when empty)</label>
          <input id="ex-at" name="at" type="datetime-local" value={props.explainForm.at ?? ""} />
          <p>
            <button type="submit">Explain</button>
          </p>
        </form>
        {props.explainProblem ? <p class="problem" role="alert">{props.explainProblem}</p> : null}
        {props.explanation ? <ExplanationView e={props.explanation} /> : null}
      </section>
    </ConsoleShell>
  );
}

function ExplanationView(props: { e: Explanation }) {
  const { e } = props;
  const eff = e.effective;
  return (
    <div class="preview" role="status">
      {e.article
        ? (
          <p>
            Article: <a href={e.article.url}>{e.article.title}</a>
          </p>
        )
        : null}
      <p>
        {e.rule
          ? <>Rule: {ruleText(e.rule)}</>
          : "No rule matches: the article's own policy and your default prices apply."}
      </p>
      {e.denials?.length
        ? <p>Denied in that country by: {e.denials.map(ruleText).join(" ")}</p>
        : null}
      {eff
        ? (
          <p>
            Effective: <span class={`tag ${eff.policy}`}>{eff.policy}</span>{" "}
            {eff.priceUsdCents !== null && eff.priceUsdCents !== undefined
              ? `${formatRate(eff.priceUsdCents)} per read`
              : ""}
            {eff.decidedBy
              ? (
                <span class="muted small">
                  {` (${decidedText(eff.decidedBy, [...(e.rule ? [e.rule] : []), ...e.denials])})`}
                </span>
              )
              : null}
          </p>
        )
        : null}
    </div>
  );
}

function Move(props: { who: Who; rules: RuleView[]; index: number; by: -1 | 1 }) {
  const ids = props.rules.map((r) => r.id);
  const [moved] = ids.splice(props.index, 1);
  ids.splice(props.index + props.by, 0, moved);
  return (
    <form method="post" action="/publisher/rules/order" class="inline">
      <CsrfField token={props.who.csrfToken} />
      {ids.map((id) => <input key={id} type="hidden" name="ids" value={id} />)}
      <button type="submit" class="secondary">{props.by < 0 ? "Move up" : "Move down"}</button>
    </form>
  );
}

/** The fields of a rule (create and edit). */
export function RuleFields(
  props: {
    who: Who;
    action: string;
    values: RuleForm;
    submit: string;
    problem?: FieldProblem | null;
  },
) {
  const v = props.values;
  const inv = (name: string, hint?: string) => invalidIf(props.problem, name, hint);
  const err = (name: string) => <FieldError problem={props.problem} name={name} />;
  return (
    <form method="post" action={props.action}>
      <CsrfField token={props.who.csrfToken} />
      <label for="r-name">Name (optional)</label>
      <p class="hint" id="r-name-hint">
        Shown here, in explanations and on your public terms page.
      </p>
      <input
        {...inv("name", "r-name-hint")}
        id="r-name"
        name="name"
        type="text"
        maxLength={80}
        value={v.name ?? ""}
      />
      {err("name")}
      <fieldset>
        <legend>Which reads it matches (all that are filled must hold)</legend>
        <label for="r-path">Path</label>
        <p class="hint" id="r-path-hint">
          A prefix such as /premium/, or a pattern with * such as /20*/opinion/*.
        </p>
        <input
          {...inv("path", "r-path-hint")}
          id="r-path"
          name="path"
          type="text"
          value={v.path ?? ""}
        />
        {err("path")}
        <label for="r-hours">Published within (hours): an embargo</label>
        <input
          {...inv("publishedWithinHours")}
          id="r-hours"
          name="publishedWithinHours"
          type="number"
          min="0"
          step="any"
          value={v.publishedWithinHours ?? ""}
        />
        {err("publishedWithinHours")}
        <label for="r-terr">Readers' countries</label>
        <p class="hint" id="r-terr-hint">Two-letter codes separated by commas, such as DE, FR.</p>
        <input
          {...inv("territories", "r-terr-hint")}
          id="r-terr"
          name="territories"
          type="text"
          value={v.territories ?? ""}
        />
        {err("territories")}
      </fieldset>
      <fieldset>
        <legend>What it does</legend>
        <label for="r-policy">Policy</label>
        <select {...inv("policy")} id="r-policy" name="policy">
          {["", "OBSERVE", "PAYWALL", "BLOCKED"].map((p) => (
            <option key={p} value={p} selected={(v.policy ?? "") === p}>{p || "unchanged"}</option>
          ))}
        </select>
        {err("policy")}
        <label for="r-price">Price per read (USD)</label>
        <input
          {...inv("priceUsd")}
          id="r-price"
          name="priceUsd"
          type="number"
          min="0"
          step="any"
          value={v.priceUsd ?? ""}
        />
        {err("priceUsd")}
        <label for="r-start">Price valid from (UTC, optional)</label>
        <input
          {...inv("windowStart")}
          id="r-start"
          name="windowStart"
          type="datetime-local"
          value={v.windowStart ?? ""}
        />
        {err("windowStart")}
        <label for="r-end">Price valid until (UTC, optional)</label>
        <input
          {...inv("windowEnd")}
          id="r-end"
          name="windowEnd"
          type="datetime-local"
          value={v.windowEnd ?? ""}
        />
        {err("windowEnd")}
        <label class="check">
          <input {...inv("deny")} type="checkbox" name="deny" value="on" checked={!!v.deny} />
          <span>Deny reads from the countries above (instead of a policy or price)</span>
        </label>
        {err("deny")}
      </fieldset>
      <label for="r-priority">Priority (lower runs first)</label>
      <input
        {...inv("priority")}
        id="r-priority"
        name="priority"
        type="number"
        min="0"
        step="1"
        required
        value={v.priority ?? ""}
      />
      {err("priority")}
      <p>
        <button type="submit">{props.submit}</button>
      </p>
    </form>
  );
}

/** GET /publisher/rules/:id. */
export function RuleEditPage(
  props: {
    who: Who;
    rule: RuleView;
    form: RuleForm;
    problem?: string | null;
    fieldProblem?: FieldProblem | null;
  },
) {
  return (
    <ConsoleShell who={props.who} section="rules" title="Edit rule" problem={props.problem}>
      <p class="small">
        <a href="/publisher/rules">All rules</a>
      </p>
      <p>{ruleText(props.rule)}</p>
      <section class="card" aria-label="Rule">
        <RuleFields
          who={props.who}
          action={`/publisher/rules/${props.rule.id}`}
          values={props.form}
          submit="Save rule"
          problem={props.fieldProblem}
        />
      </section>
    </ConsoleShell>
  );
}
