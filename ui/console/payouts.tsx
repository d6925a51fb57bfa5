/**
 * Payouts: a month's payout statement (per-read earnings and license fees, platform fees apart,
 * the net paid out and its state) with the month's items and the CSVs.
 */
import { monthInWords } from "../../server/platform/local_time.ts";
import type { z } from "zod";
import type {
  payoutStatementSchema,
  publisherItemPageSchema,
} from "../../server/surfaces/manage/payout_schemas.ts";
import type { publisherPayoutSchema } from "../../server/surfaces/manage/payee_schemas.ts";
import {
  addCents,
  formatItemUsd,
  formatUsd,
  microsToCents,
  printedCents,
} from "../../server/platform/money.ts";
import { PAYOUT_STATE_WORDS } from "./payout_state.tsx";
import { plural, surfaceInWords, useInWords } from "../../server/platform/words.ts";
import { Scroll } from "./scroll.tsx";
import { ConsoleShell, count, When, type Who } from "./shell.tsx";

/** GET /api/publisher/payouts. */
export type PayoutStatementView = z.output<typeof payoutStatementSchema>;
/** GET /api/publisher/items. */
export type PublisherItemsView = z.output<typeof publisherItemPageSchema>;

const usd = (micros: number) => formatUsd(microsToCents(micros));

/** An item's amount: one read's is a per-use price; a license fee is cents. */
const itemUsd = (it: { kind: string }, micros: number) =>
  formatItemUsd(micros, it.kind === "metered" || it.kind === "landing");

/** One payout of GET /api/publisher/payouts/history. */
export type PublisherPayoutView = z.output<typeof publisherPayoutSchema>;

const HISTORY_STATES = {
  held: "Held",
  due: "Due: in the next payout run",
  approved: "Approved: on its way",
  paid: "Paid",
} as const;

/** Each payout: its state, what it pays, why it is held, when it was paid and the reference. */
function PayoutHistory(props: { payouts: PublisherPayoutView[]; payee: string | null }) {
  return (
    <section class="card" aria-labelledby="history-title">
      <h2 id="history-title">Your payouts</h2>
      <p>
        {props.payee ? <>We pay you at {props.payee}.{" "}</> : (
          <>
            <strong>Tell us where to pay you: until then your payouts are held.</strong>
            {" "}
          </>
        )}
        <a href="/publisher/payouts/payee">
          {props.payee ? "Change where we pay you" : "Say where we pay you"}
        </a>
      </p>
      {props.payouts.length === 0
        ? <p>No payouts yet: the first comes after a month with earnings closes.</p>
        : (
          <Scroll label="Your payouts">
            <table>
              <thead>
                <tr>
                  <th scope="col">Month</th>
                  <th scope="col">State</th>
                  <th scope="col" class="num">Earned</th>
                  <th scope="col" class="num">Paid or due</th>
                  <th scope="col">Paid on</th>
                  <th scope="col">Reference</th>
                </tr>
              </thead>
              <tbody>
                {props.payouts.map((p) => (
                  <tr key={p.id}>
                    <th scope="row">
                      <a href={`/publisher/payouts?month=${p.month}`}>{monthInWords(p.month)}</a>
                    </th>
                    <td>
                      {HISTORY_STATES[p.state]}
                      {p.holds.length > 0 ? <>: {p.holds.map((h) => h.reason).join("; ")}</> : null}
                    </td>
                    <td class="num">{usd(p.earnedUsdMicros)}</td>
                    <td class="num">{usd(p.amountUsdMicros)}</td>
                    <td>
                      <When iso={p.paidAt} />
                    </td>
                    <td>{p.reference ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      <p class="hint">
        You are paid your share of what buyers actually paid: a payout waits for buyers' invoices to
        be paid, and money paid late goes with your next payout.
      </p>
    </section>
  );
}

/** GET /publisher/payouts. */
export function PayoutsPage(
  props: {
    who: Who;
    statement: PayoutStatementView;
    items: PublisherItemsView | null;
    paged: boolean;
    /** Months to choose from, newest first. */
    months: string[];
    history: PublisherPayoutView[];
    /** Where payouts go, masked; null when not given. */
    payee: string | null;
    problem?: string | null;
  },
) {
  const s = props.statement;
  const i = props.items;
  // One rounding (docs/decisions/billing.md "One rounding rule"): the net and the gross rounded
  // once, each line rounded up or down so rows and columns add up as printed.
  const p = printedCents(s.lines.map((l) => ({
    priceMicros: l.netUsdMicros,
    feeMicros: l.platformFeesUsdMicros,
  })));
  const shown = s.lines.map((l, n) => ({ ...l, ...p.lines[n] }));
  const gross = (keep: (l: typeof shown[number]) => boolean) =>
    formatUsd(addCents(shown.filter(keep).map((l) => l.amountCents)));
  return (
    <ConsoleShell
      who={props.who}
      section="payouts"
      title={`Payout statement for ${monthInWords(s.month)}`}
      problem={props.problem}
    >
      <p class="hint">
        What buyers were billed for your content on this month's statements. You are paid your own
        prices (net); the 4.7% platform fee on agent payments is charged to buyers on top and is not
        yours. Payouts are made monthly after the month closes.
      </p>
      <nav aria-label="Months" class="row">
        {props.months.map((m) =>
          m === s.month
            ? <strong key={m} aria-current="page">{monthInWords(m)}</strong>
            : <a key={m} href={`/publisher/payouts?month=${m}`}>{monthInWords(m)}</a>
        )}
      </nav>
      <p class="row">
        <a href={`/publisher/payouts/${s.month}.csv`} download>Payout statement CSV</a>
        <a href={`/publisher/payouts/${s.month}-items.csv`} download>Items CSV</a>
      </p>
      {s.lines.length === 0
        ? (
          <p class="card">
            Nothing billed for your content on the {monthInWords(s.month)} statements yet.
          </p>
        )
        : (
          <Scroll label={`Lines of the ${monthInWords(s.month)} payout statement`}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col" class="num">Count</th>
                  <th scope="col" class="num">Gross</th>
                  <th scope="col" class="num">Platform fees</th>
                  <th scope="col" class="num">Net (yours)</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((l) => (
                  <tr key={l.kind}>
                    <th scope="row">{l.description}</th>
                    <td class="num">{count(l.count)}</td>
                    <td class="num">{formatUsd(l.amountCents)}</td>
                    <td class="num">{formatUsd(l.feeCents)}</td>
                    <td class="num">{formatUsd(l.priceCents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      <section class="card" aria-labelledby="payout-title">
        <h2 id="payout-title">Totals</h2>
        <dl class="facts">
          <dt>Per-read earnings (gross)</dt>
          <dd>
            {gross((l) => l.kind === "metered" || l.kind === "landing")}{" "}
            ({plural(s.perRead.count, "charged read")})
          </dd>
          <dt>License fees (gross)</dt>
          <dd>{gross((l) => l.kind === "subscription")}</dd>
          <dt>Platform fees</dt>
          <dd>{formatUsd(p.feesCents)}</dd>
          <dt>Net (yours)</dt>
          <dd>
            <strong>{formatUsd(p.subtotalCents)}</strong>
          </dd>
          <dt>Payout</dt>
          <dd>{usd(s.payout.amountUsdMicros)}, {PAYOUT_STATE_WORDS[s.payout.state]}</dd>
        </dl>
        <p class="hint">
          Net is what you earned: your prices, added up exactly and rounded once to the cent, the
          same figure as on Earnings. Each line is rounded up or down so the lines add up to it; the
          CSVs keep the exact amounts, to a millionth of a dollar.
        </p>
      </section>
      <PayoutHistory payouts={props.history} payee={props.payee} />
      {i === null || i.items.length === 0 ? null : (
        <section aria-labelledby="items-title">
          <h2 id="items-title">Items</h2>
          <Scroll label={`Items of the ${monthInWords(s.month)} payout statement`}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Article</th>
                  <th scope="col">Use</th>
                  <th scope="col">Surface</th>
                  <th scope="col" class="num">Gross</th>
                  <th scope="col" class="num">Fee</th>
                  <th scope="col" class="num">Net</th>
                </tr>
              </thead>
              <tbody>
                {i.items.map((it) => (
                  <tr key={it.id}>
                    <td>
                      <When iso={it.at} />
                    </td>
                    <td>
                      {it.article ? (it.article.title ?? it.article.id) : "License fee"}
                    </td>
                    <td>{it.use ? useInWords(it.use) : "—"}</td>
                    <td>{surfaceInWords(it.surface)}</td>
                    <td class="num">{itemUsd(it, it.amountUsdMicros)}</td>
                    <td class="num">{itemUsd(it, it.feeUsdMicros)}</td>
                    <td class="num">{itemUsd(it, it.priceUsdMicros)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
          <nav class="pager" aria-label="Item pages">
            {props.paged ? <a href={`/publisher/payouts?month=${s.month}`}>First page</a> : null}
            <span>{plural(i.matching.count, "item")} in all</span>
            {i.nextCursor
              ? (
                <a
                  href={`/publisher/payouts?${new URLSearchParams({
                    month: s.month,
                    cursor: i.nextCursor,
                  })}`}
                >
                  Next page
                </a>
              )
              : null}
          </nav>
        </section>
      )}
    </ConsoleShell>
  );
}
