/**
 * /operator/payouts: the payouts with their holds, filters and pages; forms to hold or release
 * one, approve a batch, and mark a batch paid; each batch's payout file (issue 38 part 5).
 */
import { monthInWords } from "../../server/platform/local_time.ts";
import type { z } from "zod";
import type {
  batchListSchema,
  payoutListSchema,
} from "../../server/surfaces/operator/payout_schemas.ts";
import { addCents, formatUsd, microsToWholeCents } from "../../server/platform/money.ts";
import { plural } from "../../server/platform/words.ts";
import { CsrfField, When, when } from "../console/shell.tsx";
import { Scroll } from "../console/scroll.tsx";
import { OperatorShell, type OperatorWho } from "./shell.tsx";

/** GET /api/operator/payouts. */
export type PayoutList = z.output<typeof payoutListSchema>;
/** GET /api/operator/payout-batches. */
export type BatchList = z.output<typeof batchListSchema>;

const usd = (micros: number) => formatUsd(microsToWholeCents(micros));

const STATES = { held: "Held", due: "Due", approved: "Approved", paid: "Paid" } as const;

/** What the page shows. */
export interface OperatorPayoutsProps {
  who: OperatorWho;
  list: PayoutList;
  batches: BatchList;
  filter: { month: string; state: string; publisherId: string };
  /** The month a batch would be approved up to (the last closed one). */
  batchMonth: string;
  notice?: string | null;
  problem?: string | null;
}

/** GET /operator/payouts. */
export function OperatorPayoutsPage(props: OperatorPayoutsProps) {
  const { list, filter } = props;
  const page = (offset: number) =>
    `/operator/payouts?${new URLSearchParams({ ...filter, offset: String(offset) })}`;
  const due = list.payouts.filter((p) => p.state === "due");
  return (
    <OperatorShell
      who={props.who}
      section="payouts"
      title="Payouts"
      notice={props.notice}
      problem={props.problem}
    >
      <p class="muted">
        A publisher is paid its share of what buyers actually paid, in whole cents; a payout is
        held, with the reason, until it can be paid. Every change is recorded in the{" "}
        <a href="/operator/audit?action=payout.">audit log</a>.
      </p>
      <form method="get" action="/operator/payouts" class="card filters">
        <label for="f-month">Month (YYYY-MM)</label>
        <input type="text" id="f-month" name="month" value={filter.month} inputmode="numeric" />
        <label for="f-state">State</label>
        <select id="f-state" name="state">
          <option value="" selected={filter.state === ""}>Any</option>
          {Object.entries(STATES).map(([v, w]) => (
            <option key={v} value={v} selected={filter.state === v}>{w}</option>
          ))}
        </select>
        <label for="f-pub">Publisher id</label>
        <input type="text" id="f-pub" name="publisherId" value={filter.publisherId} />
        <p>
          <button type="submit">Show</button>
        </p>
      </form>
      {list.payouts.length === 0
        ? (
          <p class="card">
            No payouts match. Payouts appear after a month closes.
          </p>
        )
        : (
          <Scroll label="Payouts">
            <table>
              <thead>
                <tr>
                  <th scope="col">Publisher</th>
                  <th scope="col">Month</th>
                  <th scope="col">State</th>
                  <th scope="col" class="num">Earned</th>
                  <th scope="col" class="num">Pays</th>
                  <th scope="col">Paid to</th>
                  <th scope="col">Paid on, reference</th>
                  <th scope="col">Review</th>
                </tr>
              </thead>
              <tbody>
                {list.payouts.map((p) => (
                  <tr key={p.id}>
                    <th scope="row">{p.publisherName}</th>
                    <td>{monthInWords(p.month)}</td>
                    <td>
                      {STATES[p.state]}
                      {p.holds.length > 0 ? <>: {p.holds.map((h) => h.reason).join("; ")}</> : null}
                    </td>
                    <td class="num">{usd(p.earnedUsdMicros)}</td>
                    <td class="num">{usd(p.amountUsdMicros)}</td>
                    <td>{p.payee ?? "No payee details"}</td>
                    <td>{p.paidAt ? `${when(p.paidAt)}, ${p.reference}` : "—"}</td>
                    <td>
                      {p.state === "held" || p.state === "due"
                        ? (
                          p.reviewHold
                            ? (
                              <form method="post" action={`/operator/payouts/${p.id}/release`}>
                                <CsrfField token={props.who.csrfToken} />
                                <button type="submit">Release review hold</button>
                              </form>
                            )
                            : (
                              <form method="post" action={`/operator/payouts/${p.id}/hold`}>
                                <CsrfField token={props.who.csrfToken} />
                                <label for={`why-${p.id}`}>Reason</label>
                                <input type="text" id={`why-${p.id}`} name="reason" required />
                                <button type="submit">Hold for review</button>
                              </form>
                            )
                        )
                        : "—"}
                    </td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={4}>
                    Paid or due on this page ({plural(list.payouts.length, "payout")})
                  </th>
                  <td class="num">
                    {formatUsd(
                      addCents(list.payouts.map((p) => microsToWholeCents(p.amountUsdMicros))),
                    )}
                  </td>
                  <td colSpan={3}></td>
                </tr>
              </tfoot>
            </table>
          </Scroll>
        )}
      <nav class="pager" aria-label="Payout pages">
        {list.offset > 0
          ? <a href={page(Math.max(0, list.offset - list.limit))}>Previous</a>
          : null}
        <span>{plural(list.total, "payout")}</span>
        {list.offset + list.limit < list.total
          ? <a href={page(list.offset + list.limit)}>Next</a>
          : null}
      </nav>
      <section class="card" aria-labelledby="approve-title">
        <h2 id="approve-title">Approve a batch</h2>
        <p>
          Approves every payout due up to the month and not held ({plural(due.length, "payout")}
          {" "}
          due on this page). Each pays what is due now; a payout is never in two batches.
        </p>
        <form method="post" action="/operator/payouts/batches">
          <CsrfField token={props.who.csrfToken} />
          <label for="b-month">Up to month (YYYY-MM)</label>
          <input type="text" id="b-month" name="month" value={props.batchMonth} required />
          <p>
            <button type="submit">Approve batch</button>
          </p>
        </form>
      </section>
      <section aria-labelledby="batches-title">
        <h2 id="batches-title">Batches</h2>
        {props.batches.batches.length === 0
          ? <p class="card">No batch has been approved yet.</p>
          : props.batches.batches.map((b) => (
            <div class="card" key={b.id}>
              <h3>
                {monthInWords(b.month)}: {plural(b.payoutCount, "payout")}, {usd(b.totalUsdMicros)}
              </h3>
              <p>
                Approved <When iso={b.createdAt} /> by {b.approvedBy}. {b.paidCount} of{" "}
                {b.payoutCount} paid. {b.exportedAt
                  ? `File first downloaded ${when(b.exportedAt)}.`
                  : "Not downloaded yet."}
              </p>
              <p>
                <a href={`/operator/payouts/batches/${b.id}.csv`} download>
                  Download the payout file (CSV)
                </a>
              </p>
              {b.paidCount < b.payoutCount
                ? (
                  <form method="post" action={`/operator/payouts/batches/${b.id}/paid`}>
                    <CsrfField token={props.who.csrfToken} />
                    <label for={`on-${b.id}`}>Paid on</label>
                    <input
                      id={`on-${b.id}`}
                      name="paidOn"
                      type="date"
                      required
                    />
                    <label for={`ref-${b.id}`}>Transfer reference</label>
                    <input type="text" id={`ref-${b.id}`} name="reference" required />
                    <p>
                      <button type="submit">Mark paid</button>
                    </p>
                  </form>
                )
                : null}
            </div>
          ))}
      </section>
    </OperatorShell>
  );
}
