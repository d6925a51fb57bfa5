/**
 * The operator's Invoices and Suspensions pages (issue 38): invoices filtered by state, buyer and
 * month and paged; one invoice with its payments and the forms that record a payment, void it or
 * write it off; suspensions with the forms that suspend a buyer and lift one. Every form is a POST
 * with the session's CSRF token, and every change lands in the audit log.
 */
import type { z } from "zod";
import type {
  invoicePageSchema,
  operatorInvoiceSchema,
  suspensionPageSchema,
} from "../../server/surfaces/operator/invoices_schemas.ts";
import { formatUsd, microsToWholeCents } from "../../server/platform/money.ts";
import { Scroll } from "../console/scroll.tsx";
import { CsrfField, When, when } from "../console/shell.tsx";
import { monthInWords } from "../../server/platform/local_time.ts";
import { METHOD_WORDS, STATE_WORDS } from "../invoice.tsx";
import { OperatorShell, type OperatorWho } from "./shell.tsx";

export type OperatorInvoice = z.output<typeof operatorInvoiceSchema>;
export type InvoiceList = z.output<typeof invoicePageSchema>;
export type SuspensionList = z.output<typeof suspensionPageSchema>;

/** The list's filters as the form sent them. */
export interface InvoiceFilters {
  state?: string;
  buyerId?: string;
  month?: string;
}

const usd = (micros: number) => formatUsd(microsToWholeCents(micros));
const stateText = (i: Pick<OperatorInvoice, "state" | "overdue">) =>
  i.overdue ? `${STATE_WORDS[i.state]}, overdue` : STATE_WORDS[i.state];

/** A page link keeping the filters. */
function listHref(filters: InvoiceFilters, offset: number): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v) q.set(k, v);
  if (offset > 0) q.set("offset", String(offset));
  const s = q.toString();
  return `/operator/invoices${s ? `?${s}` : ""}`;
}

/** GET /operator/invoices. */
export function InvoicesPage(
  props: {
    who: OperatorWho;
    list: InvoiceList;
    filters: InvoiceFilters;
    offset: number;
    limit: number;
    problem?: string | null;
  },
) {
  const { list, filters } = props;
  return (
    <OperatorShell who={props.who} section="invoices" title="Invoices" problem={props.problem}>
      <p class="muted">
        Each buyer's invoice is issued when its month closes, due 30 days later unless configured
        otherwise. Record payments as they arrive; an overpayment becomes the buyer's credit.
      </p>
      <form method="get" action="/operator/invoices" class="card">
        <label>
          Status{" "}
          <select name="state">
            <option value="">Any</option>
            {(["open", "partially_paid", "overdue", "paid", "void", "uncollectible"] as const).map((
              s,
            ) => (
              <option value={s} selected={filters.state === s}>
                {s === "overdue" ? "Overdue" : STATE_WORDS[s]}
              </option>
            ))}
          </select>
        </label>{" "}
        <label>
          Buyer id <input name="buyerId" value={filters.buyerId ?? ""} size={24} />
        </label>{" "}
        <label>
          Month <input name="month" value={filters.month ?? ""} placeholder="2026-11" size={8} />
        </label>{" "}
        <button type="submit">Show</button>
      </form>
      {list.invoices.length === 0
        ? (
          <p class="card">
            {Object.values(filters).some(Boolean)
              ? "No invoice matches these filters."
              : "No invoices yet: each buyer's invoice appears here when its month closes."}
          </p>
        )
        : (
          <Scroll label="Invoices">
            <table>
              <thead>
                <tr>
                  <th scope="col">Invoice</th>
                  <th scope="col">Buyer</th>
                  <th scope="col">Month</th>
                  <th scope="col">Status</th>
                  <th scope="col">Due</th>
                  <th scope="col" class="num">Amount due</th>
                  <th scope="col" class="num">Left to pay</th>
                </tr>
              </thead>
              <tbody>
                {list.invoices.map((i) => (
                  <tr key={i.number}>
                    <th scope="row">
                      <a href={`/operator/invoices/${i.number}`}>{i.number}</a>
                    </th>
                    <td>{i.buyerName}</td>
                    <td>{monthInWords(i.month)}</td>
                    <td>{stateText(i)}</td>
                    <td>
                      <When iso={i.dueAt} billing />
                    </td>
                    <td class="num">{usd(i.amountDueUsdMicros)}</td>
                    <td class="num">{usd(i.amountRemainingUsdMicros)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      <nav class="pager" aria-label="Invoice pages">
        {props.offset > 0
          ? <a href={listHref(filters, Math.max(0, props.offset - props.limit))}>Previous</a>
          : null}
        {list.nextOffset !== null ? <a href={listHref(filters, list.nextOffset)}>Next</a> : null}
      </nav>
    </OperatorShell>
  );
}

/** GET /operator/invoices/<number>. */
export function InvoiceDetailPage(
  props: {
    who: OperatorWho;
    invoice: OperatorInvoice;
    /** A fresh key per rendering: sending the same form twice records one payment. */
    paymentKey: string;
    today: string;
    notice?: string | null;
    problem?: string | null;
  },
) {
  const i = props.invoice;
  const open = i.state === "open" || i.state === "partially_paid";
  const csrf = <CsrfField token={props.who.csrfToken} />;
  return (
    <OperatorShell
      who={props.who}
      section="invoices"
      title={`Invoice ${i.number}`}
      notice={props.notice}
      problem={props.problem}
    >
      <p>
        <a href="/operator/invoices">← Invoices</a>
      </p>
      <dl class="card">
        <dt>Buyer</dt>
        <dd>
          {i.buyerName} (<code>{i.buyerId}</code>)
        </dd>
        <dt>Month</dt>
        <dd>{monthInWords(i.month)}</dd>
        <dt>Status</dt>
        <dd>{stateText(i)}{i.closedReason ? `: ${i.closedReason}` : ""}</dd>
        <dt>Issued, due</dt>
        <dd>
          <When iso={i.issuedAt} billing />, due <When iso={i.dueAt} billing />
        </dd>
        <dt>Total, credit applied, amount due</dt>
        <dd>
          {usd(i.totalUsdMicros)}, {usd(i.creditAppliedUsdMicros)}, {usd(i.amountDueUsdMicros)}
        </dd>
        <dt>Paid, left to pay</dt>
        <dd>
          {usd(i.paidUsdMicros)}, {usd(i.amountRemainingUsdMicros)}
        </dd>
      </dl>
      <h2>Payments</h2>
      {i.payments.length === 0 ? <p>No payment recorded yet.</p> : (
        <Scroll label="Payments">
          <table>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Method</th>
                <th scope="col">Reference</th>
                <th scope="col" class="num">Amount</th>
                <th scope="col" class="num">To credit</th>
                <th scope="col">Recorded</th>
              </tr>
            </thead>
            <tbody>
              {i.payments.map((p) => (
                <tr key={p.id}>
                  <td>{p.paidOn}</td>
                  <td>{METHOD_WORDS[p.method] ?? p.method}</td>
                  <td>{p.reference || "—"}</td>
                  <td class="num">{usd(p.amountUsdMicros)}</td>
                  <td class="num">{usd(p.creditedUsdMicros)}</td>
                  <td>
                    <When iso={p.recordedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
      {open
        ? (
          <>
            <form method="post" action={`/operator/invoices/${i.number}/payments`} class="card">
              <h2>Record a payment</h2>
              {csrf}
              <input type="hidden" name="idempotencyKey" value={props.paymentKey} />
              <p>
                <label>
                  Amount (USD){" "}
                  <input
                    name="amount"
                    inputMode="decimal"
                    required
                    value={(microsToWholeCents(i.amountRemainingUsdMicros) / 100).toFixed(2)}
                  />
                </label>
              </p>
              <p>
                <label>
                  Received on <input type="date" name="paidOn" required value={props.today} />
                </label>
              </p>
              <p>
                <label>
                  Method{" "}
                  <select name="method">
                    {Object.entries(METHOD_WORDS).map(([v, label]) => (
                      <option value={v} selected={v === "bank_transfer"}>{label}</option>
                    ))}
                  </select>
                </label>
              </p>
              <p>
                <label>
                  Reference <input name="reference" maxLength={200} />
                </label>
              </p>
              <button type="submit">Record payment</button>
            </form>
            <form method="post" action={`/operator/invoices/${i.number}/void`} class="card">
              <h2>Void</h2>
              {csrf}
              <p class="muted">
                For an invoice issued in error, with no payment: the credit it used goes back to the
                buyer.
              </p>
              <label>
                Reason <input name="reason" required maxLength={500} />
              </label>{" "}
              <button type="submit">Void invoice</button>
            </form>
            <form
              method="post"
              action={`/operator/invoices/${i.number}/uncollectible`}
              class="card"
            >
              <h2>Mark uncollectible</h2>
              {csrf}
              <p class="muted">Writes the rest off: the invoice takes no more payments.</p>
              <label>
                Reason <input name="reason" required maxLength={500} />
              </label>{" "}
              <button type="submit">Mark uncollectible</button>
            </form>
          </>
        )
        : null}
    </OperatorShell>
  );
}

/** GET /operator/suspensions. */
export function SuspensionsPage(
  props: {
    who: OperatorWho;
    list: SuspensionList;
    openOnly: boolean;
    offset: number;
    limit: number;
    notice?: string | null;
    problem?: string | null;
  },
) {
  const csrf = <CsrfField token={props.who.csrfToken} />;
  const href = (offset: number) =>
    `/operator/suspensions?${new URLSearchParams({
      ...(props.openOnly ? { open: "true" } : {}),
      ...(offset > 0 ? { offset: String(offset) } : {}),
    })}`;
  return (
    <OperatorShell
      who={props.who}
      section="suspensions"
      title="Suspensions"
      notice={props.notice}
      problem={props.problem}
    >
      <p class="muted">
        A suspended buyer's priced reads are refused on every surface (payment overdue, with the
        invoice's link); free articles still read. Credit control suspends a buyer whose invoice is
        unpaid past the grace period, and paying lifts it at once.
      </p>
      <p>
        {props.openOnly
          ? <a href="/operator/suspensions">Show all, lifted ones too</a>
          : <a href="/operator/suspensions?open=true">Show only those in force</a>}
      </p>
      {props.list.suspensions.length === 0
        ? <p class="card">No suspensions{props.openOnly ? " in force" : ""}.</p>
        : (
          <Scroll label="Suspensions">
            <table>
              <thead>
                <tr>
                  <th scope="col">Buyer</th>
                  <th scope="col">Why</th>
                  <th scope="col">Since</th>
                  <th scope="col">Lifted</th>
                  <th scope="col">Lift</th>
                </tr>
              </thead>
              <tbody>
                {props.list.suspensions.map((s) => (
                  <tr key={s.id}>
                    <th scope="row">
                      {s.buyerName} <code>{s.buyerId}</code>
                    </th>
                    <td>
                      {s.reason === "payment_overdue"
                        ? <>Invoice {s.invoiceNumber} overdue</>
                        : <>By hand: {s.note}</>}
                    </td>
                    <td>
                      <When iso={s.since} /> by {s.startedBy}
                    </td>
                    <td>
                      {s.liftedAt ? `${when(s.liftedAt)} by ${s.liftedBy}: ${s.liftNote}` : "—"}
                    </td>
                    <td>
                      {s.liftedAt
                        ? null
                        : (
                          <form method="post" action={`/operator/suspensions/${s.buyerId}/lift`}>
                            {csrf}
                            <label>
                              Reason <input name="reason" required maxLength={500} size={14} />
                            </label>{" "}
                            <button type="submit">Lift</button>
                          </form>
                        )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      <nav class="pager" aria-label="Suspension pages">
        {props.offset > 0
          ? <a href={href(Math.max(0, props.offset - props.limit))}>Previous</a>
          : null}
        {props.list.nextOffset !== null ? <a href={href(props.list.nextOffset)}>Next</a> : null}
      </nav>
      <form method="post" action="/operator/suspensions" class="card">
        <h2>Suspend a buyer by hand</h2>
        {csrf}
        <p>
          <label>
            Buyer id <input name="buyerId" required maxLength={100} />
          </label>
        </p>
        <p>
          <label>
            Reason <input name="reason" required maxLength={500} />
          </label>
        </p>
        <button type="submit">Suspend</button>
      </form>
    </OperatorShell>
  );
}
