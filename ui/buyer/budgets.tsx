/**
 * Budgets: the buyer's own monthly limits on per-read spend, overall and per publisher, beside the
 * platform's 1,000 USD per publisher cap (docs/SPEC.md "Limits"); and the spend bars the overview
 * shows too.
 */
import { monthInWords } from "../../server/platform/local_time.ts";
import type { z } from "zod";
import type { budgetsSchema } from "../../server/surfaces/marketplace/schemas.ts";
import { Scroll } from "../console/scroll.tsx";
import { CsrfField } from "../console/shell.tsx";
import { formatUsd, usdField } from "../../server/platform/money.ts";
import { BuyerShell, type BuyerWho } from "./shell.tsx";

/** GET /api/marketplace/budgets. */
export type BudgetReport = z.output<typeof budgetsSchema>;

/** One publisher of GET /api/marketplace/budgets. */
export type PublisherBudget = BudgetReport["publishers"][number];

/** A horizontal bar of `spent` against `limit`, labelled for screen readers. */
export function LimitBar(props: { spent: number; limit: number; of: string }) {
  const pct = props.limit > 0 ? Math.min(100, (props.spent / props.limit) * 100) : 100;
  const words = `${formatUsd(props.spent)} of ${props.of} ${formatUsd(props.limit)} (${
    Math.round(pct)
  }%)`;
  return (
    <div class="limit">
      <div
        class={`progress${pct >= 100 ? " full" : pct >= 80 ? " near" : ""}`}
        role="img"
        aria-label={words}
      >
        <span style={`width:${pct.toFixed(1)}%`} />
      </div>
      <span class="small muted" aria-hidden="true">{words}</span>
    </div>
  );
}

/**
 * This month's spend per publisher: per-read spend against the cap, and per-read spend with license
 * fees against the buyer's budgets.
 */
export function SpendBars(props: { report: BudgetReport }) {
  const r = props.report;
  const spending = r.publishers.filter((p) => p.spentUsdCents > 0 || p.monthlyUsdCents !== null);
  return (
    <>
      {r.overall.monthlyUsdCents !== null
        ? (
          <div class="spend-row">
            <b>All publishers</b>
            <LimitBar
              spent={r.overall.spentUsdCents}
              limit={r.overall.monthlyUsdCents}
              of="your overall budget of"
            />
          </div>
        )
        : null}
      {spending.length === 0
        ? <p class="muted">No per-read spend in {monthInWords(r.month)} yet.</p>
        : spending.map((p) => (
          <div class="spend-row" key={p.publisherId}>
            <b>{p.publisherName}</b>
            <LimitBar spent={p.readSpendUsdCents} limit={p.capUsdCents} of="the cap of" />
            {p.monthlyUsdCents !== null
              ? (
                <LimitBar
                  spent={p.spentUsdCents}
                  limit={p.monthlyUsdCents}
                  of="your budget of"
                />
              )
              : null}
          </div>
        ))}
    </>
  );
}

/** A budget form the API refused: which budget, its words, and what was typed. */
export interface FailedBudget {
  publisherId: string | null;
  problem: string;
  typed: string;
}

/** What the budgets page shows. */
export interface BudgetsProps {
  who: BuyerWho;
  report: BudgetReport;
  /** Every publisher in the catalog, to set a budget for one not yet listed. */
  publishers: { publisherId: string; name: string }[];
  notice?: string | null;
  failed?: FailedBudget | null;
}

/** Dollars as the form shows them: "12.50", or "" for no budget. */
function dollars(cents: number | null): string {
  return cents === null ? "" : usdField(cents);
}

/** One budget's form: the amount (empty removes it) and, when one is set, a remove button. */
function BudgetForm(
  props: {
    who: BuyerWho;
    publisherId: string | null;
    label: string;
    cents: number | null;
    failed?: FailedBudget | null;
    /** In a table row the publisher is named beside it: the label is for screen readers. */
    quietLabel?: boolean;
  },
) {
  const mine = props.failed && props.failed.publisherId === props.publisherId;
  const id = `budget-${props.publisherId ?? "overall"}`;
  // The refusal is the amount's (issue 34): the field says so to screen readers.
  const described = mine
    ? { "aria-invalid": "true" as const, "aria-describedby": `${id}-error budget-hint` }
    : { "aria-describedby": "budget-hint" };
  return (
    <form method="post" action="/buyer/budgets" class="row filter">
      <CsrfField token={props.who.csrfToken} />
      {props.publisherId
        ? <input type="hidden" name="publisherId" value={props.publisherId} />
        : null}
      <div>
        <label for={id} class={props.quietLabel ? "sr-only" : undefined}>{props.label}</label>
        <input
          id={id}
          name="monthlyUsd"
          type="text"
          inputMode="decimal"
          size={10}
          value={mine ? props.failed!.typed : dollars(props.cents)}
          {...described}
        />
      </div>
      <button type="submit">Save</button>
      {props.cents !== null
        ? (
          <button type="submit" name="action" value="remove" class="secondary">
            Remove
          </button>
        )
        : null}
      {mine ? <p class="problem" id={`${id}-error`} role="alert">{props.failed!.problem}</p> : null}
    </form>
  );
}

/** GET /buyer/budgets. */
export function BudgetsPage(props: BudgetsProps) {
  const r = props.report;
  const listed = new Set(r.publishers.map((p) => p.publisherId));
  const others = props.publishers.filter((p) => !listed.has(p.publisherId));
  const addFailed = !!props.failed && props.failed.publisherId !== null &&
    !listed.has(props.failed.publisherId);
  // A refusal shows beside its form; one with no form on the page shows at the top.
  const placed = !props.failed || props.failed.publisherId === null ||
    listed.has(props.failed.publisherId) || others.length > 0;
  return (
    <BuyerShell
      who={props.who}
      section="budgets"
      title="Budgets"
      notice={props.notice}
      problem={placed ? null : props.failed!.problem}
    >
      <p class="hint" id="budget-hint">
        A budget caps what you are billed in a UTC month, in US dollars: per-read spend and license
        fees together; leave it empty to remove it. When a read would go past a budget it is served
        as it would be past the platform's {formatUsd(r.capUsdCents)}{" "}
        cap (which counts per-read spend only): with the rights you hold (usually a summary) and no
        charge. A license or an offer whose first charge would go past a budget is refused. To be
        told when a budget reaches 80% and 100%, add a <a href="/buyer/webhooks">webhook</a> for
        {" "}
        <code>budget.threshold</code>.
      </p>
      <section class="card" aria-labelledby="spend-title">
        <h2 id="spend-title">Spend in {monthInWords(r.month)}</h2>
        <SpendBars report={r} />
      </section>
      <section class="card" aria-labelledby="overall-title">
        <h2 id="overall-title">Overall budget</h2>
        <p class="hint">Across every publisher.</p>
        <BudgetForm
          who={props.who}
          publisherId={null}
          label="Monthly budget, all publishers (USD)"
          cents={r.overall.monthlyUsdCents}
          failed={props.failed}
        />
      </section>
      <section class="card" aria-labelledby="publisher-title">
        <h2 id="publisher-title">Per publisher</h2>
        {r.publishers.length === 0
          ? <p class="muted">No publisher has a budget or spend this month.</p>
          : (
            <Scroll label="Budgets per publisher">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Publisher</th>
                    <th scope="col" class="num">Spent (reads and license fees)</th>
                    <th scope="col" class="num">Room left</th>
                    <th scope="col">Budget</th>
                  </tr>
                </thead>
                <tbody>
                  {r.publishers.map((p) => (
                    <tr key={p.publisherId}>
                      <th scope="row">{p.publisherName}</th>
                      <td class="num">{formatUsd(p.spentUsdCents)}</td>
                      <td class="num">{formatUsd(p.remainingUsdCents)}</td>
                      <td>
                        <BudgetForm
                          who={props.who}
                          publisherId={p.publisherId}
                          label={`Monthly budget for ${p.publisherName} (USD)`}
                          cents={p.monthlyUsdCents}
                          failed={props.failed}
                          quietLabel
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          )}
        {others.length
          ? (
            <form method="post" action="/buyer/budgets" class="row filter">
              <CsrfField token={props.who.csrfToken} />
              <div>
                <label for="new-publisher">Publisher</label>
                <select id="new-publisher" name="publisherId">
                  {others.map((p) => (
                    <option
                      key={p.publisherId}
                      value={p.publisherId}
                      selected={addFailed && props.failed!.publisherId === p.publisherId}
                    >
                      {p.name}
                    </option>
                  ))}
                </select>
              </div>
              <div>
                <label for="new-budget">Monthly budget (USD)</label>
                <input
                  id="new-budget"
                  name="monthlyUsd"
                  type="text"
                  inputMode="decimal"
                  size={10}
                  required
                  value={addFailed ? props.failed!.typed : ""}
                  {...(addFailed
                    ? { "aria-invalid": "true", "aria-describedby": "new-budget-error" }
                    : {})}
                />
              </div>
              <button type="submit">Add budget</button>
              {addFailed
                ? <p class="problem" id="new-budget-error" role="alert">{props.failed!.problem}</p>
                : null}
            </form>
          )
          : null}
      </section>
    </BuyerShell>
  );
}
