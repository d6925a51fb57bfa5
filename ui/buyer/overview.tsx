/** The buyer's overview: this month's calls, reads and spend against the cap and budgets, and next steps. */
import { monthInWords } from "../../server/platform/local_time.ts";
import { Checklist, type Step } from "../console/checklist.tsx";
import { count, Figure } from "../console/shell.tsx";
import { formatUsd } from "../../server/platform/money.ts";
import { type BudgetReport, SpendBars } from "./budgets.tsx";
import { BuyerShell, type BuyerWho } from "./shell.tsx";

/** What the overview shows. */
export interface BuyerOverviewProps {
  who: BuyerWho;
  report: BudgetReport;
  month: { calls: number; reads: number };
  /** This month's statement total so far (GET /api/marketplace/statement `totalUsdCents`). */
  statementUsdCents: number;
  activeLicenses: number;
  steps: Step[];
}

/** GET /buyer. */
export function BuyerOverviewPage(props: BuyerOverviewProps) {
  const r = props.report;
  return (
    <BuyerShell who={props.who} section="overview" title="Overview">
      <Checklist steps={props.steps} />
      <div class="grid">
        <Figure value={count(props.month.calls)} label={`calls in ${monthInWords(r.month)}`} />
        <Figure value={count(props.month.reads)} label="article reads" />
        <Figure value={formatUsd(props.statementUsdCents)} label="billed this month so far" />
        <Figure value={count(props.activeLicenses)} label="active licenses" />
      </div>
      <p class="hint">
        Billed this month so far: everything on this month's{" "}
        <a href={`/buyer/statements/${r.month}`}>statement</a>{" "}
        (license fees, reads and agent payments, with Folio's 4.7% fee on agent payments), added up
        exactly and rounded once to the cent.
      </p>
      <section class="card" aria-labelledby="spend-title">
        <h2 id="spend-title">Spend per publisher in {monthInWords(r.month)}</h2>
        <p>
          Per-read spend this month:{" "}
          <strong>{formatUsd(r.overall.readSpendUsdCents)}</strong>, the reads and agent payments
          alone (with their fee), what the monthly cap counts.
        </p>
        <p class="hint">
          Each publisher's per-read spend against the platform's {formatUsd(r.capUsdCents)}{" "}
          monthly cap and against your own budgets. Past either, reads are served with the rights
          you hold and are not charged.
        </p>
        <SpendBars report={r} />
        <p class="small">
          <a href="/buyer/budgets">Set budgets</a> · <a href="/buyer/usage">Usage per day</a> ·{" "}
          <a href={`/buyer/statements/${r.month}`}>This month's statement</a>
        </p>
      </section>
    </BuyerShell>
  );
}
