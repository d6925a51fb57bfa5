/** Statements: the months to choose from, and one month's statement with its downloads. */
import { monthInWords } from "../../server/platform/local_time.ts";
import type { z } from "zod";
import type { StatementWire } from "../../server/domain/billing/statement.ts";
import type { statementMonthsSchema } from "../../server/surfaces/marketplace/schemas.ts";
import { Pager, Scroll } from "../console/scroll.tsx";
import { count, when } from "../console/shell.tsx";
import { formatUsd } from "../../server/platform/money.ts";
import { BuyerShell, type BuyerWho } from "./shell.tsx";
import { InvoicesSection, type ReceivablesView } from "./invoices.tsx";
import { plural } from "../../server/platform/words.ts";

/** One month of GET /api/marketplace/statements. */
export type StatementMonthView = z.output<typeof statementMonthsSchema>["months"][number];

/** GET /api/marketplace/statement?month= (the wire form: cents only). */
export type StatementView = StatementWire;

/** The portal's items page with a statement line's drill-down filters (its API `itemsUrl`). */
function itemsPageOf(itemsUrl: string): string {
  const q = itemsUrl.indexOf("?");
  return `/buyer/items${q < 0 ? "" : itemsUrl.slice(q)}`;
}

/** A month's links: the statement, the invoice, and the two downloads. */
function MonthLinks(props: { month: string; page?: boolean }) {
  const base = `/buyer/statements/${props.month}`;
  return (
    <span class="row">
      {props.page ? <a href={base}>Statement</a> : null}
      <a href={`${base}/invoice`}>Invoice</a>
      <a href={`${base}.csv`} download>CSV</a>
      <a href={`${base}.json`} download>JSON</a>
    </span>
  );
}

/** GET /buyer/statements. */
export function StatementsPage(
  props: {
    who: BuyerWho;
    months: StatementMonthView[];
    page: number;
    pages: number;
    /** Whether any month has anything on it. */
    billed: boolean;
    receivables: ReceivablesView;
    cardPayments: boolean;
  },
) {
  return (
    <BuyerShell who={props.who} section="statements" title="Statements">
      <p class="hint">
        Everything you owe lands on one statement a month (UTC): license fees, metered reads and
        agent payments. A month's statement closes after it ends and never changes; a charge that
        arrives later is an adjustment on the next one. Statements are settled by invoice; automatic
        card collection is a future capability and is not available yet.
      </p>
      {props.billed ? null : (
        <p class="card">
          Nothing billed yet. Metered reads and license fees appear on the current month's statement
          as they happen.
        </p>
      )}
      <Scroll label="Statements by month">
        <table>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">State</th>
              <th scope="col" class="num">Total</th>
              <th scope="col">Documents</th>
            </tr>
          </thead>
          <tbody>
            {props.months.map((m) => (
              <tr key={m.month}>
                <th scope="row">
                  <a href={`/buyer/statements/${m.month}`}>{monthInWords(m.month)}</a>
                </th>
                <td>{m.state === "open" ? "open (month in progress)" : "closed"}</td>
                <td class="num">{formatUsd(m.totalUsdCents)}</td>
                <td>
                  <MonthLinks month={m.month} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
      <Pager
        label="Statement pages"
        page={props.page}
        pages={props.pages}
        href={(n) => `/buyer/statements?page=${n}`}
      />
      <InvoicesSection r={props.receivables} cardPayments={props.cardPayments} />
    </BuyerShell>
  );
}

/** GET /buyer/statements/<YYYY-MM>. */
export function StatementPage(props: { who: BuyerWho; statement: StatementView }) {
  const s = props.statement;
  return (
    <BuyerShell
      who={props.who}
      section="statements"
      title={`Statement for ${monthInWords(s.month)}`}
    >
      <p>
        <a href="/buyer/statements">← Statements</a>
      </p>
      <p>
        {s.state === "closed"
          ? `Closed ${when(s.closedAt)}: this statement no longer changes.`
          : "Open: the month is in progress and its charges are still arriving."}
      </p>
      <p>
        <MonthLinks month={s.month} />
      </p>
      {s.lines.length === 0
        ? <p class="card">Nothing on this statement.</p>
        : (
          <Scroll label={`Lines of the ${monthInWords(s.month)} statement`}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Publisher</th>
                  <th scope="col">Item</th>
                  <th scope="col" class="num">Quantity</th>
                  <th scope="col" class="num">Publisher price</th>
                  <th scope="col" class="num">Platform fee</th>
                  <th scope="col" class="num">Amount</th>
                  <th scope="col">Items</th>
                </tr>
              </thead>
              <tbody>
                {s.lines.map((l, i) => (
                  <tr key={i}>
                    <td>{l.publisherName}</td>
                    <td>{l.description}{l.prepaid ? " (paid by card)" : ""}</td>
                    <td class="num">{count(l.quantity)}</td>
                    <td class="num">{formatUsd(l.priceUsdCents)}</td>
                    <td class="num">{formatUsd(l.feeUsdCents)}</td>
                    <td class="num">{formatUsd(l.amountUsdCents)}</td>
                    <td>
                      <a
                        href={itemsPageOf(l.itemsUrl)}
                        aria-label={`${
                          plural(l.quantity, "item")
                        } of ${l.publisherName}: ${l.description}`}
                      >
                        {plural(l.quantity, "item")}
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      <p class="hint">{s.settlementNote}</p>
      <section class="card" aria-labelledby="totals-title">
        <h2 id="totals-title">Totals</h2>
        <p class="hint">
          The total is the exact sum of every charge on this statement, rounded once to the cent.
          Each line is rounded up or down so the lines add up to it as shown; the CSV and JSON
          downloads keep the exact amounts, to a millionth of a dollar.
        </p>
        <dl class="facts">
          <dt>License fees</dt>
          <dd>{formatUsd(s.subscriptionFeesUsdCents)}</dd>
          <dt>Metered reads</dt>
          <dd>{formatUsd(s.meteredUsdCents)}</dd>
          <dt>Agent payments</dt>
          <dd>
            {formatUsd(s.landingUsdCents)} (incl. {formatUsd(s.platformFeesUsdCents)} platform fees)
          </dd>
          <dt>Adjustments</dt>
          <dd>{formatUsd(s.adjustmentsUsdCents)}</dd>
          <dt>Total</dt>
          <dd>
            <strong>{formatUsd(s.totalUsdCents)}</strong>
          </dd>
          <dt>Paid by card</dt>
          <dd>{formatUsd(s.prepaidUsdCents)}</dd>
          <dt>Amount due</dt>
          <dd>
            <strong>{formatUsd(s.amountDueUsdCents)}</strong>
          </dd>
        </dl>
      </section>
    </BuyerShell>
  );
}
