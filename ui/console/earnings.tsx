/**
 * Earnings: what the publisher earned per statement month (metered reads, landing-page payments,
 * subscriptions) and per day over a chosen window, the payout of each month, and in one paragraph
 * how payouts and the platform fee work.
 */
import type { z } from "zod";
import type { earningsSchema } from "../../server/surfaces/manage/openapi_schemas.ts";
import { BarChart, StackedBarChart } from "../chart.tsx";
import { Scroll } from "./scroll.tsx";
import { ConsoleShell, count, Figure, type Who, WindowTabs } from "./shell.tsx";
import { centsToUsd, formatUsd, usdToCents } from "../../server/platform/money.ts";
import { plural } from "../../server/platform/words.ts";
import { monthInWords } from "../../server/platform/local_time.ts";
import { PAYOUT_STATE_WORDS, PayoutState } from "./payout_state.tsx";

/** One month of GET /api/publisher/earnings. */
export type EarningsMonth = z.output<typeof earningsSchema>["months"][number];

/** One day of GET /api/publisher/analytics, the parts this page uses. */
export interface EarningsDay {
  day: string;
  reads: number;
  chargedReads: number;
  earningsUsdCents: number;
  platformFeesUsdCents: number;
}

/** What the earnings page shows. */
export interface EarningsProps {
  who: Who;
  /** Newest first, as the API answers. */
  months: EarningsMonth[];
  daily: EarningsDay[];
  /** The window's totals (GET /api/publisher/analytics `totals`): summed once, not day by day. */
  window: { chargedReads: number; earningsUsdCents: number; platformFeesUsdCents: number };
  days: number;
  /** The windows offered by the switcher, in days. */
  windows: readonly number[];
  /** The current statement month, e.g. "2026-11". */
  month: string;
  /** The platform fee in words, e.g. "4.7%". */
  feeText: string;
  problem?: string | null;
}

const CHART_MONTHS = 12;

const PARTS = [
  ["meteredUsdCents", "Metered reads", "s0"],
  ["landingUsdCents", "Landing page", "s1"],
  ["subscriptionUsdCents", "License fees", "s2"],
] as const;

/** GET /publisher/earnings. */
export function EarningsPage(props: EarningsProps) {
  const earned = props.months.some((m) => m.earningsUsdCents > 0 || m.chargedReads > 0) ||
    props.daily.some((d) => d.earningsUsdCents > 0);
  // The latest month that is over: its payout is the one a publisher waits for.
  const paid = props.months.find((m) => m.payout.state !== "accruing");
  const current = props.months.find((m) => m.month === props.month);
  return (
    <ConsoleShell who={props.who} section="earnings" title="Earnings" problem={props.problem}>
      {!earned
        ? (
          <>
            <NoEarnings />
            <HowPayoutsWork feeText={props.feeText} />
          </>
        )
        : (
          <>
            <div class="grid">
              <Figure
                value={formatUsd(current?.earningsUsdCents ?? 0)}
                label={`earned in ${monthInWords(props.month)} so far`}
              />
              <Figure value={count(current?.chargedReads ?? 0)} label="charged reads this month" />
              <Figure
                value={paid ? formatUsd(paid.payout.amountUsdCents) : "—"}
                label={paid
                  ? `payout for ${monthInWords(paid.month)}: ${
                    PAYOUT_STATE_WORDS[paid.payout.state]
                  }`
                  : "no payout yet"}
              />
            </div>
            <EarnedMeans />
            <HowPayoutsWork feeText={props.feeText} />
            <section class="card" aria-labelledby="monthly-title">
              <h2 id="monthly-title">Per month</h2>
              <Monthly months={props.months} current={props.month} />
            </section>
          </>
        )}
      <section class="card" aria-labelledby="daily-title">
        <h2 id="daily-title">Per day, last {props.days} days</h2>
        <p class="muted small">
          What reads earned each day (metered and landing-page reads); license fees are earned per
          month.
        </p>
        <WindowTabs base="/publisher/earnings" days={props.days} windows={props.windows} />
        {earned
          ? <Daily daily={props.daily} window={props.window} />
          : <p class="muted">Nothing earned in this window yet.</p>}
      </section>
    </ConsoleShell>
  );
}

/** What "earned" means, the same words as on the Overview. */
export function EarnedMeans() {
  return (
    <p class="muted small">
      Earned: your prices on this month's statements (metered reads, agent payments on your pages
      and license fees, less any credit notes), added up exactly and rounded once to the cent.
      Folio's platform fee is not in it. Each month's parts are rounded up or down so they add up to
      its total.
    </p>
  );
}

function HowPayoutsWork(props: { feeText: string }) {
  return (
    <section class="card" aria-labelledby="how-title">
      <h2 id="how-title">How you are paid</h2>
      <p>
        You keep your own price on every read: your earnings are the sum of your prices for metered
        reads, landing-page payments and license fees. When a month ends its statements close and
        your payout for that month is computed; payouts are made monthly. On the landing-page and
        crawler path the agent pays your price plus Folio's {props.feeText}{" "}
        platform fee; that fee is recorded apart (the platform fees column) and never comes out of
        your earnings.
      </p>
    </section>
  );
}

function NoEarnings() {
  return (
    <section class="card" aria-labelledby="none-title">
      <h2 id="none-title">No earnings yet</h2>
      <p>
        You earn when a buyer's agent reads one of your PAYWALL articles at your price, when an
        agent pays on your landing page, or when a buyer subscribes to your catalog or has a license
        request approved.
      </p>
      <p>
        Set your prices under <a href="/publisher/settings#license">Settings</a>{" "}
        and choose which articles are paid under <a href="/publisher/rules">Rules</a>.
      </p>
    </section>
  );
}

/** The `n` months up to `last` ("YYYY-MM"), oldest first. */
export function monthsUpTo(last: string, n: number): string[] {
  const [y, m] = last.split("-").map(Number);
  return Array.from({ length: n }, (_, i) => {
    const k = y * 12 + (m - 1) - (n - 1 - i);
    return `${Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, "0")}`;
  });
}

function Monthly(props: { months: EarningsMonth[]; current: string }) {
  // The chart always spans a year, so one month of data is one bar among twelve.
  const span = monthsUpTo(props.current, CHART_MONTHS);
  const credits = props.months.some((m) => m.adjustmentsUsdCents !== 0);
  const of = (month: string) => props.months.find((m) => m.month === month);
  return (
    <>
      <StackedBarChart
        label={`Earnings per month in US dollars by kind, ${monthInWords(span[0])} to ${
          monthInWords(span.at(-1)!)
        }`}
        series={PARTS.map(([, name, className]) => ({ name, className }))}
        peak={(usd) => `best month: ${formatUsd(usdToCents(usd))}`}
        stacks={span.map((month) => ({
          label: month,
          values: PARTS.map(([key]) => centsToUsd(of(month)?.[key] ?? 0)),
        }))}
      />
      <Scroll label="Earnings per month">
        <table>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col" class="num">Metered</th>
              <th scope="col" class="num">Landing page</th>
              <th scope="col" class="num">License fees</th>
              {credits ? <th scope="col" class="num">Credit notes</th> : null}
              <th scope="col" class="num">Your earnings</th>
              <th scope="col" class="num">Platform fees (apart)</th>
              <th scope="col" class="num">Charged reads</th>
              <th scope="col">Payout</th>
            </tr>
          </thead>
          <tbody>
            {props.months.map((m) => (
              <tr key={m.month}>
                <th scope="row" class="nowrap">{monthInWords(m.month)}</th>
                <td class="num">{formatUsd(m.meteredUsdCents)}</td>
                <td class="num">{formatUsd(m.landingUsdCents)}</td>
                <td class="num">{formatUsd(m.subscriptionUsdCents)}</td>
                {credits ? <td class="num">{formatUsd(m.adjustmentsUsdCents)}</td> : null}
                <td class="num">
                  <strong>{formatUsd(m.earningsUsdCents)}</strong>
                </td>
                <td class="num">{formatUsd(m.platformFeesUsdCents)}</td>
                <td class="num">{count(m.chargedReads)}</td>
                <td>
                  {formatUsd(m.payout.amountUsdCents)} <PayoutState state={m.payout.state} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
    </>
  );
}

function Daily(props: { daily: EarningsDay[]; window: EarningsProps["window"] }) {
  const { daily } = props;
  // The window's own totals, rounded once: adding up the days' rounded cents would drift.
  const total = props.window.earningsUsdCents;
  const fees = props.window.platformFeesUsdCents;
  const charged = props.window.chargedReads;
  return (
    <>
      <BarChart
        label={`Earnings per day in US dollars, ${daily[0]?.day} to ${daily.at(-1)?.day}`}
        bars={daily.map((d) => ({
          label: d.day,
          value: centsToUsd(d.earningsUsdCents),
          title: `${d.day}: ${formatUsd(d.earningsUsdCents)} from ${d.chargedReads} charged of ${
            plural(d.reads, "read")
          }; platform fees ${formatUsd(d.platformFeesUsdCents)}`,
        }))}
      />
      <p class="small">
        In these days: {formatUsd(total)} earned from {count(charged)}{" "}
        charged reads (by the day of the read; license fees are earned per month); {formatUsd(fees)}
        {" "}
        platform fees recorded apart.
      </p>
    </>
  );
}
