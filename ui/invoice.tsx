/**
 * The invoice of a buyer's monthly statement (issue 34), and the checkout landing page. The
 * invoice is a page to print: on paper (or "Save as PDF") it drops the screen's links and keeps
 * its own margins on A4 or Letter (@page, CSS Paged Media).
 */
import type { Invoice } from "../server/domain/billing/invoice.ts";
import { Page } from "./layout.tsx";
import { dayInWords, monthInWords } from "../server/platform/local_time.ts";
import { formatUsd, microsToWholeCents } from "../server/platform/money.ts";

const INVOICE_CSS = `body{max-width:50rem}
.inv-bar{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;padding:.6rem .8rem;
background:#f3f4f6;border-radius:6px;margin-bottom:1.5rem;font-size:.95rem}
.inv-head{display:flex;flex-wrap:wrap;justify-content:space-between;gap:1rem 2rem;margin-bottom:1.5rem}
.inv-head h1{margin:0 0 .4rem}
.seller strong{font-size:1.15rem}
.inv-meta{display:grid;grid-template-columns:auto auto;gap:.15rem 1rem;margin:0}
.inv-meta dt{color:#4b5563}.inv-meta dd{margin:0}
.draft{display:inline-block;border:2px solid #b45309;color:#92400e;padding:.1rem .5rem;
font-weight:700;letter-spacing:.05em;border-radius:4px}
.party h2{font-size:.85rem;text-transform:uppercase;letter-spacing:.05em;color:#4b5563;margin:0 0 .3rem}
.party p{margin:0}
.lines-wrap{overflow-x:auto;margin:1.5rem 0}
table.lines{width:100%}
.num{text-align:right;white-space:nowrap}
table.totals{margin-left:auto;min-width:18rem}
table.totals th{font-weight:400;color:#374151}
table.totals tr.grand th,table.totals tr.grand td{font-weight:700;border-top:2px solid #111}
.terms{margin-top:2rem;font-size:.9rem;color:#374151}
@media (max-width:30rem){body{margin:1rem auto;font-size:15px}td,th{padding:.3rem .35rem}
table.totals{min-width:0;width:100%}}
@page{margin:16mm 14mm}
@media print{body{max-width:none;margin:0;padding:0;font-size:11pt;color:#000}
.inv-bar{display:none}a{color:#000;text-decoration:none}
.lines-wrap{overflow:visible}tr{break-inside:avoid}thead{display:table-header-group}
code{background:none;padding:0}}`;

/** The invoice page: the seller, the buyer, the lines and the totals, and the terms. */
export function InvoicePage(props: { invoice: Invoice; backHref?: string; payHref?: string }) {
  const inv = props.invoice;
  const r = inv.receivable;
  const payable = r && (r.state === "open" || r.state === "partially_paid");
  const s = inv.statement;
  const title = inv.number ? `Invoice ${inv.number}` : `Draft invoice, ${monthInWords(s.month)}`;
  return (
    <Page title={`${title} · Folio`} css={INVOICE_CSS}>
      <div class="inv-bar">
        {props.backHref ? <a href={props.backHref}>← Back to the statement</a> : null}
        {props.payHref && payable ? <a href={props.payHref}>Pay this invoice by card</a> : null}
        <span>
          To keep a PDF, print this page and choose "Save as PDF": links and this bar are left off.
        </span>
      </div>
      <header class="inv-head">
        <div class="seller">
          <strong>{inv.seller.name}</strong>
          {inv.seller.address.map((line, i) => <div key={i}>{line}</div>)}
          {inv.seller.email ? <div>{inv.seller.email}</div> : null}
          {inv.seller.taxId ? <div>Tax ID {inv.seller.taxId}</div> : null}
        </div>
        <div>
          <h1>
            {inv.number ? <>Invoice {inv.number}</> : <>Draft invoice, {monthInWords(s.month)}</>}
          </h1>
          <dl class="inv-meta">
            <dt>Invoice number</dt>
            <dd>{inv.number ?? <span class="draft">DRAFT</span>}</dd>
            <dt>Period</dt>
            <dd>{monthInWords(s.month)} (UTC)</dd>
            <dt>Issue date</dt>
            <dd>{inv.issuedOn ? dayInWords(inv.issuedOn) : "when the month closes"}</dd>
            <dt>Due date</dt>
            <dd>{dayInWords(inv.dueOn)}</dd>
            {r
              ? (
                <>
                  <dt>Status</dt>
                  <dd>{STATE_WORDS[r.state]}{r.overdue ? ", overdue" : ""}</dd>
                </>
              )
              : null}
            <dt>Currency</dt>
            <dd>USD</dd>
          </dl>
        </div>
      </header>
      <section class="party" aria-labelledby="bill-to">
        <h2 id="bill-to">Bill to</h2>
        <p>
          <strong>{inv.buyer.name}</strong>
        </p>
        <p>{inv.buyer.email}</p>
        <p>
          Buyer <code>{inv.buyer.id}</code>
        </p>
      </section>
      {inv.status === "draft"
        ? (
          <p>
            <span class="draft">DRAFT</span> {s.lines.length
              ? "The month is still open: this invoice is issued, with its number and dates, when the month closes on the 1st (UTC)."
              : "Nothing to invoice for this month."}
          </p>
        )
        : null}
      <div class="lines-wrap" role="region" aria-label="Line items" tabIndex={0}>
        <table class="lines">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Publisher</th>
              <th scope="col" class="num">Qty</th>
              <th scope="col" class="num">Publisher's price</th>
            </tr>
          </thead>
          <tbody>
            {s.lines.map((l) => (
              <tr>
                <td>{l.description}{l.prepaid ? " (paid by card)" : ""}</td>
                <td>{l.publisherName}</td>
                <td class="num">{l.quantity.toLocaleString("en-US")}</td>
                <td class="num">{formatUsd(l.priceUsdCents)}</td>
              </tr>
            ))}
            {s.lines.length === 0 && (
              <tr>
                <td colSpan={4}>No charges this month.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <table class="totals">
        <tbody>
          <tr>
            <th scope="row">Subtotal (the lines above)</th>
            <td class="num">{formatUsd(inv.subtotalUsdCents)}</td>
          </tr>
          <tr>
            <th scope="row">Folio platform fee (4.7% on agent payments)</th>
            <td class="num">{formatUsd(inv.feesUsdCents)}</td>
          </tr>
          <tr>
            <th scope="row">Total</th>
            <td class="num">{formatUsd(inv.totalUsdCents)}</td>
          </tr>
          <tr>
            <th scope="row">Already paid by card</th>
            <td class="num">−{formatUsd(inv.prepaidUsdCents)}</td>
          </tr>
          {inv.creditUsdCents > 0
            ? (
              <tr>
                <th scope="row">Credit applied from your balance</th>
                <td class="num">−{formatUsd(inv.creditUsdCents)}</td>
              </tr>
            )
            : null}
          <tr class="grand">
            <th scope="row">Amount due</th>
            <td class="num">{formatUsd(inv.amountDueUsdCents)}</td>
          </tr>
          {r && r.paidUsdMicros > 0
            ? (
              <>
                <tr>
                  <th scope="row">Paid</th>
                  <td class="num">−{formatUsd(microsToWholeCents(r.paidUsdMicros))}</td>
                </tr>
                <tr class="grand">
                  <th scope="row">Left to pay</th>
                  <td class="num">{formatUsd(r.amountRemainingUsdCents)}</td>
                </tr>
              </>
            )
            : null}
        </tbody>
      </table>
      {r && r.payments.length > 0
        ? (
          <section aria-labelledby="payments">
            <h2 id="payments">Payments</h2>
            <div class="lines-wrap" role="region" aria-label="Payments" tabIndex={0}>
              <table class="lines">
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">Method</th>
                    <th scope="col">Reference</th>
                    <th scope="col" class="num">Amount</th>
                  </tr>
                </thead>
                <tbody>
                  {r.payments.map((p) => (
                    <tr key={p.id}>
                      <td>{dayInWords(p.paidOn)}</td>
                      <td>{METHOD_WORDS[p.method] ?? p.method}</td>
                      <td>{p.reference || "—"}</td>
                      <td class="num">
                        {formatUsd(p.amountUsdCents)}
                        {p.creditedUsdMicros > 0
                          ? ` (${
                            formatUsd(microsToWholeCents(p.creditedUsdMicros))
                          } to your credit)`
                          : ""}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        )
        : null}
      <footer class="terms">
        <p>
          {inv.dueOn
            ? `Payment terms: due within ${termDays(inv)} days, by ${dayInWords(inv.dueOn)}.`
            : "Payment terms: due within 30 days of issue."}{" "}
          Every amount is the exact sum of the month's charges (kept to a millionth of a dollar),
          rounded once to the cent; each line is rounded up or down so that the lines add up to the
          subtotal as printed. Reads charged after the month closed appear on the next invoice as
          adjustments.
          {inv.seller.email ? ` Questions about this invoice: ${inv.seller.email}.` : ""}
        </p>
      </footer>
    </Page>
  );
}

/** An invoice's state in words. */
export const STATE_WORDS: Record<NonNullable<Invoice["receivable"]>["state"], string> = {
  open: "Open",
  partially_paid: "Partly paid",
  paid: "Paid",
  void: "Void",
  uncollectible: "Uncollectible",
};

/** How a payment came in, in words. */
export const METHOD_WORDS: Record<string, string> = {
  bank_transfer: "Bank transfer",
  card: "Card",
  stripe: "Card (Stripe)",
  check: "Check",
  cash: "Cash",
  other: "Other",
};

function termDays(inv: Invoice): number {
  const r = inv.receivable!;
  return Math.round((Date.parse(r.dueAt) - Date.parse(r.issuedAt)) / 86_400_000);
}

/** Where a buyer lands after checkout. */
export function CheckoutPage(props: { outcome: "active" | "pending" | "canceled" | "abandoned" }) {
  const text = {
    active: "Your license is active. Per-use charges for its use cases stop from now on.",
    pending: "Your payment is not confirmed yet. The license activates as soon as it is.",
    canceled: "This checkout was canceled or expired. Start a new subscription to try again.",
    abandoned: "Checkout was not completed. Nothing was charged.",
  }[props.outcome];
  return (
    <Page title="Folio checkout">
      <h1>Checkout</h1>
      <p>{text}</p>
    </Page>
  );
}
