/**
 * The buyer's invoices (issue 38): balance due, credit, a suspension's notice, each invoice's
 * state, due date and what is left, and the page that pays one by card (Stripe Checkout).
 */
import type { z } from "zod";
import type { receivablesSchema } from "../../server/surfaces/marketplace/invoice_schemas.ts";
import { Scroll } from "../console/scroll.tsx";
import { CsrfField, Messages, When } from "../console/shell.tsx";
import { monthInWords } from "../../server/platform/local_time.ts";
import { formatUsd, microsToWholeCents } from "../../server/platform/money.ts";
import { METHOD_WORDS, STATE_WORDS } from "../invoice.tsx";
import { BuyerShell, type BuyerWho } from "./shell.tsx";

/** GET /api/marketplace/invoices. */
export type ReceivablesView = z.output<typeof receivablesSchema>;
type InvoiceView = ReceivablesView["invoices"][number];

const usd = (micros: number) => formatUsd(microsToWholeCents(micros));

/** An invoice's state as a person says it, overdue included. */
export function stateText(i: Pick<InvoiceView, "state" | "overdue">): string {
  return i.overdue ? `${STATE_WORDS[i.state]}, overdue` : STATE_WORDS[i.state];
}

/** The balance, credit and suspension, and the invoices (on the statements page). */
export function InvoicesSection(props: { r: ReceivablesView; cardPayments: boolean }) {
  const r = props.r;
  return (
    <section aria-labelledby="invoices">
      <h2 id="invoices">Invoices and balance</h2>
      {r.suspension
        ? (
          <p class="alert" role="alert">
            {r.suspension.invoiceNumber
              ? `Priced reads are suspended until invoice ${r.suspension.invoiceNumber} is paid. Free articles still read.`
              : `Priced reads are suspended by the operator: ${r.suspension.note}. Free articles still read.`}
          </p>
        )
        : null}
      <p>
        Balance due <strong>{usd(r.balanceDueUsdMicros)}</strong>
        {r.overdueUsdMicros > 0 ? `, of which ${usd(r.overdueUsdMicros)} overdue` : ""}.{" "}
        {r.creditBalanceUsdMicros > 0
          ? `Your credit of ${usd(r.creditBalanceUsdMicros)} is taken off your next invoice.`
          : ""}
      </p>
      {r.invoices.length === 0
        ? <p class="card">No invoices yet: a month's invoice is issued when the month closes.</p>
        : (
          <Scroll label="Invoices">
            <table>
              <thead>
                <tr>
                  <th scope="col">Invoice</th>
                  <th scope="col">Month</th>
                  <th scope="col">Status</th>
                  <th scope="col">Due</th>
                  <th scope="col" class="num">Amount due</th>
                  <th scope="col" class="num">Left to pay</th>
                  <th scope="col">Payments</th>
                </tr>
              </thead>
              <tbody>
                {r.invoices.map((i) => (
                  <tr key={i.number}>
                    <th scope="row">
                      <a href={`/buyer/statements/${i.month}/invoice`}>{i.number}</a>
                    </th>
                    <td>{monthInWords(i.month)}</td>
                    <td>{stateText(i)}</td>
                    <td>
                      <When iso={i.dueAt} billing />
                    </td>
                    <td class="num">{usd(i.amountDueUsdMicros)}</td>
                    <td class="num">{usd(i.amountRemainingUsdMicros)}</td>
                    <td>
                      {i.payments.length === 0 ? "none" : i.payments.map((p) => (
                        <div key={p.id}>
                          {p.paidOn} {METHOD_WORDS[p.method] ?? p.method} {usd(p.amountUsdMicros)}
                        </div>
                      ))}
                      {props.cardPayments &&
                          (i.state === "open" || i.state === "partially_paid")
                        ? <a href={`/buyer/invoices/${i.number}/pay`}>Pay by card</a>
                        : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
    </section>
  );
}

/** GET /buyer/invoices/<number>/pay: confirm, then go to Stripe Checkout. */
export function PayInvoicePage(
  props: { who: BuyerWho; invoice: InvoiceView; problem?: string | null },
) {
  const i = props.invoice;
  const open = i.state === "open" || i.state === "partially_paid";
  return (
    <BuyerShell who={props.who} section="statements" title={`Pay invoice ${i.number}`}>
      <p>
        <a href="/buyer/statements">← Statements</a>
      </p>
      <Messages problem={props.problem ?? null} />
      <p>
        Invoice {i.number} for {monthInWords(i.month)}: {stateText(i)}, due{" "}
        <When iso={i.dueAt} billing />.
      </p>
      {open
        ? (
          <form method="post" action={`/buyer/invoices/${i.number}/pay`}>
            <CsrfField token={props.who.csrfToken} />
            <p>
              You pay <strong>{usd(i.amountRemainingUsdMicros)}</strong>{" "}
              by card on Stripe's page; the invoice is marked paid as soon as Stripe confirms.
            </p>
            <button type="submit">Continue to card payment</button>
          </form>
        )
        : <p class="card">Nothing is left to pay on this invoice.</p>}
    </BuyerShell>
  );
}
