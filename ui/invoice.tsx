/** The printable invoice of a monthly statement, and the checkout landing page. */
import type { Statement } from "../server/domain/billing/statement.ts";
import { Page } from "./layout.tsx";
import { formatUsd } from "../server/platform/money.ts";

/** The invoice page: one consolidated statement, its lines and its totals. */
export function InvoicePage(props: {
  statement: Statement;
  buyer: { id: string; name: string; email: string };
}) {
  const s = props.statement;
  return (
    <Page title={`Folio invoice ${s.month}`}>
      <h1>Invoice {s.month}</h1>
      <p>
        {props.buyer.name} &lt;{props.buyer.email}&gt; · buyer <code>{props.buyer.id}</code>
        <br />
        Statement {s.state === "closed" ? `closed ${s.closedAt}` : "open (month in progress)"}{" "}
        · settled by invoice · USD
      </p>
      <table>
        <thead>
          <tr>
            <th>Publisher</th>
            <th>Item</th>
            <th>Qty</th>
            <th>Amount</th>
          </tr>
        </thead>
        <tbody>
          {s.lines.map((l) => (
            <tr>
              <td>{l.publisherName}</td>
              <td>{l.description}{l.prepaid ? " (paid by card)" : ""}</td>
              <td>{l.quantity}</td>
              <td>{formatUsd(l.amountUsdCents)}</td>
            </tr>
          ))}
          {s.lines.length === 0 && (
            <tr>
              <td colSpan={4}>No charges this month.</td>
            </tr>
          )}
        </tbody>
      </table>
      <table>
        <tbody>
          <tr>
            <th>Subscription fees</th>
            <td>{formatUsd(s.subscriptionFeesUsdCents)}</td>
          </tr>
          <tr>
            <th>Metered reads</th>
            <td>{formatUsd(s.meteredUsdCents)}</td>
          </tr>
          <tr>
            <th>Agent payments (incl. {formatUsd(s.platformFeesUsdCents)} platform fees)</th>
            <td>{formatUsd(s.landingUsdCents)}</td>
          </tr>
          <tr>
            <th>Adjustments</th>
            <td>{formatUsd(s.adjustmentsUsdCents)}</td>
          </tr>
          <tr>
            <th>Total</th>
            <td>
              <strong>{formatUsd(s.totalUsdCents)}</strong>
            </td>
          </tr>
          <tr>
            <th>Already paid by card</th>
            <td>{formatUsd(s.prepaidUsdCents)}</td>
          </tr>
          <tr>
            <th>Amount due</th>
            <td>
              <strong>{formatUsd(s.amountDueUsdCents)}</strong>
            </td>
          </tr>
        </tbody>
      </table>
    </Page>
  );
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
