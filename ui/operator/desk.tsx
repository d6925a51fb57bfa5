/**
 * The operator's desk (/operator; issue 38 part 6): a month's money (billed, collected,
 * outstanding, overdue, credited, platform fees, payouts due and paid) with the months before it
 * as charts, a table and CSV; links to the lists of invoices, disputes, suspensions and payouts;
 * who runs the node and the latest recorded actions.
 */
import { monthInWords } from "../../server/platform/local_time.ts";
import type { z } from "zod";
import type { deskSchema } from "../../server/surfaces/operator/payout_schemas.ts";
import {
  centsToUsd,
  formatUsd,
  microsToWholeCents,
  printedCents,
  splitCents,
  usdToCents,
} from "../../server/platform/money.ts";
import { StackedBarChart } from "../chart.tsx";
import { Figure } from "../console/shell.tsx";
import { Scroll } from "../console/scroll.tsx";
import { type AuditEntry, AuditTable } from "./audit.tsx";
import { OperatorShell, type OperatorWho } from "./shell.tsx";

/** GET /api/operator/desk. */
export type DeskView = z.output<typeof deskSchema>;

const usd = (micros: number) => formatUsd(microsToWholeCents(micros));

/**
 * A month's figures in the cents the desk prints, by the one rounding rule (docs/decisions/
 * billing.md "One rounding rule"): each figure is its micro-dollar sum rounded once; billed is
 * prices + fees as printed (the fees are the difference), and collected is split to the cent over
 * card, invoices and untracked, so the parts shown add up to the figure beside them.
 */
export function deskCents(m: DeskView["month"]) {
  const billed = printedCents([{
    priceMicros: m.publishersPricesUsdMicros,
    feeMicros: m.platformFeesUsdMicros,
  }]);
  const collected = microsToWholeCents(m.collectedUsdMicros);
  const [byCard, onInvoices, untracked] = splitCents(
    [m.collectedByCardUsdMicros, m.collectedOnInvoicesUsdMicros, m.collectedUntrackedUsdMicros],
    collected,
  );
  const approved = microsToWholeCents(m.payoutsApprovedUsdMicros);
  const paid = microsToWholeCents(m.payoutsPaidUsdMicros);
  return {
    billed: billed.totalCents,
    prices: billed.subtotalCents,
    fees: billed.feesCents,
    collected,
    byCard,
    onInvoices,
    untracked,
    outstanding: microsToWholeCents(m.outstandingUsdMicros),
    approved,
    paid,
    approvedUnpaid: approved - paid,
  };
}

/** What the desk shows. */
export interface DeskProps {
  who: OperatorWho;
  operators: number;
  activeKeys: number;
  latest: AuditEntry[];
  desk: DeskView;
  /** The months before and after the one shown (null at the open month). */
  previous: string;
  next: string | null;
}

/** GET /operator. */
export function DeskPage(props: DeskProps) {
  const m = props.desk.month;
  const h = props.desk.history;
  const c = deskCents(m);
  const span = `${monthInWords(h[0].month)} to ${monthInWords(h.at(-1)!.month)}`;
  return (
    <OperatorShell who={props.who} section="desk" title={`Desk: ${monthInWords(m.month)}`}>
      <nav aria-label="Months" class="row">
        <a href={`/operator?month=${props.previous}`}>Previous month</a>
        <strong aria-current="page">
          {monthInWords(m.month)} ({m.state === "open" ? "in progress" : "closed"})
        </strong>
        {props.next ? <a href={`/operator?month=${props.next}`}>Next month</a> : null}
        <a href={`/operator/desk.csv?month=${m.month}`} download>Months as CSV</a>
      </nav>
      <section aria-labelledby="money-title">
        <h2 id="money-title">Money of {monthInWords(m.month)}'s statements</h2>
        <div class="grid">
          <Figure value={formatUsd(c.billed)} label="billed" />
          <Figure value={formatUsd(c.collected)} label="collected" />
          <Figure value={usd(m.outstandingUsdMicros)} label="outstanding" />
          <Figure value={usd(m.overdueUsdMicros)} label="overdue" />
          <Figure value={usd(m.creditedUsdMicros)} label="credited (credit notes)" />
          <Figure value={formatUsd(c.fees)} label="platform fees (4.7%)" />
          <Figure value={usd(m.payoutsDueNowUsdMicros)} label="payouts due now" />
          <Figure value={usd(m.payoutsPaidUsdMicros)} label="payouts paid" />
        </div>
        <dl class="facts">
          <dt>Billed</dt>
          <dd>
            {formatUsd(c.prices)} publishers' prices + {formatUsd(c.fees)} platform fees, on{" "}
            {m.invoices} invoices
          </dd>
          <dt>Collected</dt>
          <dd>
            {formatUsd(c.byCard)} by card, {formatUsd(c.onInvoices)} on invoices
            {m.collectedUntrackedUsdMicros > 0
              ? <>, {formatUsd(c.untracked)} from before invoices recorded payments</>
              : null}; {usd(m.creditAppliedUsdMicros)} of credit used
          </dd>
          <dt>Written off</dt>
          <dd>
            {usd(m.voidUsdMicros)} voided, {usd(m.uncollectibleUsdMicros)} uncollectible
          </dd>
          <dt>Payouts</dt>
          <dd>
            {usd(m.payoutsEarnedUsdMicros)} earned by {m.payouts} publishers;{" "}
            {usd(m.payoutsApprovedUsdMicros)} approved, {usd(m.payoutsPaidUsdMicros)} paid;{" "}
            {m.payoutsHeld} held
          </dd>
          <dt>Platform revenue</dt>
          <dd>
            The 4.7% fee on agent payments (the landing path) is the platform's only revenue.
          </dd>
        </dl>
        <p class="row">
          <a href={props.desk.links.invoices}>Invoices</a>
          <a href={props.desk.links.disputes}>Disputes</a>
          <a href={props.desk.links.suspensions}>Suspensions</a>
          <a href={props.desk.links.payouts}>Payouts</a>
        </p>
      </section>
      <section aria-labelledby="months-title">
        <h2 id="months-title">Month by month</h2>
        <StackedBarChart
          label={`Collected and still owed per month in US dollars, ${span}`}
          series={[
            { name: "Collected", className: "s0" },
            { name: "Outstanding", className: "s1" },
          ]}
          peak={(v) => `highest month: ${formatUsd(usdToCents(v))}`}
          stacks={h.map((x) => deskCents(x)).map((x, i) => ({
            label: h[i].month,
            values: [centsToUsd(x.collected), centsToUsd(x.outstanding)],
          }))}
        />
        <StackedBarChart
          label={`Payouts paid and approved but unpaid per month in US dollars, ${span}`}
          series={[
            { name: "Paid", className: "s0" },
            { name: "Approved, not paid yet", className: "s2" },
          ]}
          peak={(v) => `highest month: ${formatUsd(usdToCents(v))}`}
          stacks={h.map((x) => deskCents(x)).map((x, i) => ({
            label: h[i].month,
            values: [centsToUsd(x.paid), centsToUsd(x.approvedUnpaid)],
          }))}
        />
        <Scroll label="Money per month">
          <table>
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col" class="num">Billed</th>
                <th scope="col" class="num">Collected</th>
                <th scope="col" class="num">Outstanding</th>
                <th scope="col" class="num">Overdue</th>
                <th scope="col" class="num">Credited</th>
                <th scope="col" class="num">Platform fees</th>
                <th scope="col" class="num">Payouts earned</th>
                <th scope="col" class="num">Payouts paid</th>
              </tr>
            </thead>
            <tbody>
              {[...h].reverse().map((x) => ({ x, xc: deskCents(x) })).map(({ x, xc }) => (
                <tr key={x.month}>
                  <th scope="row">
                    <a href={`/operator?month=${x.month}`}>{monthInWords(x.month)}</a>
                  </th>
                  <td class="num">{formatUsd(xc.billed)}</td>
                  <td class="num">{formatUsd(xc.collected)}</td>
                  <td class="num">{usd(x.outstandingUsdMicros)}</td>
                  <td class="num">{usd(x.overdueUsdMicros)}</td>
                  <td class="num">{usd(x.creditedUsdMicros)}</td>
                  <td class="num">{formatUsd(xc.fees)}</td>
                  <td class="num">{usd(x.payoutsEarnedUsdMicros)}</td>
                  <td class="num">{usd(x.payoutsPaidUsdMicros)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      </section>
      <div class="grid">
        <Figure value={String(props.operators)} label="operators" />
        <Figure value={String(props.activeKeys)} label="operator keys in use" />
        <Figure value={String(props.who.recoveryCodesLeft)} label="of your recovery codes left" />
      </div>
      <section class="card" aria-labelledby="latest-title">
        <h2 id="latest-title">Latest actions</h2>
        {props.latest.length === 0
          ? <p>Nothing has been recorded yet.</p>
          : <AuditTable entries={props.latest} />}
        <p>
          <a href="/operator/audit">The whole audit log</a>
        </p>
      </section>
    </OperatorShell>
  );
}
