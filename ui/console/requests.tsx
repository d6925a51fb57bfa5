/**
 * License requests: what agents asked for with request_license, by state (tabs), each with who
 * asked, the rights asked for and their message; a pending request has an approve form (price
 * and term) and a deny form (reason).
 */
import { type Caller, CallerName } from "./caller.tsx";
import { ConsoleShell, CsrfField, When, when, type Who } from "./shell.tsx";
import { formatUsd } from "../../server/platform/money.ts";
import { plural, useInWords } from "../../server/platform/words.ts";

/** The states a request can be in, in tab order. */
export const REQUEST_STATES = ["pending", "approved", "denied"] as const;
/** A request's state. */
export type RequestState = typeof REQUEST_STATES[number];

/** One of GET /api/publisher/license-requests `requests` (price, term and reason once decided). */
export interface RequestView {
  id: string;
  buyerId: string | null;
  useCase: string;
  enterprise: boolean;
  message: string;
  contact: string | null;
  state: string;
  licenseId: string | null;
  createdAt: string;
  decidedAt: string | null;
  requester: Caller;
  monthlyPriceUsdCents?: number | null;
  termMonths?: number | null;
  reason?: string | null;
  /** The most the buyer said it will pay a month. */
  maxMonthlyUsdCents?: number | null;
  /** The offer an approval made, and where it stands. */
  offer?: {
    state: string;
    expiresAt: string;
    decidedAt: string | null;
    note: string | null;
    declineReason: string | null;
  } | null;
}

/** A decision the API refused: which request and form, its problem, and what was typed. */
export interface FailedDecision {
  id: string;
  action: "approve" | "deny";
  problem: string;
  values: Record<string, string>;
}

/** What the requests page shows. */
export interface RequestsProps {
  who: Who;
  state: RequestState;
  requests: RequestView[];
  /** The most the API lists at once. */
  limit: number;
  notice?: string | null;
  problem?: string | null;
  failed?: FailedDecision | null;
}

const EMPTY: Record<RequestState, string> = {
  pending:
    "No requests are waiting. When an AI company's agent asks for a license (to fine-tune on your archive, say, or to display articles beyond its rights), the request waits here for you to approve with an offer or deny. The buyer accepts or declines your offer; once accepted it becomes a license billed to their buyer account.",
  approved:
    "No approved requests yet. Requests you approve are listed here with the offer you made and whether the buyer accepted it.",
  denied: "No denied requests.",
};

/** GET /publisher/requests. */
export function RequestsPage(props: RequestsProps) {
  const failedHere = props.failed && props.requests.some((r) => r.id === props.failed!.id);
  const problem = props.problem ??
    (props.failed
      ? (failedHere ? "Not saved: see the request below." : props.failed.problem)
      : null);
  return (
    <ConsoleShell
      who={props.who}
      section="requests"
      title="License requests"
      notice={props.notice}
      problem={problem}
    >
      <nav aria-label="Request states">
        <ul class="tabs">
          {REQUEST_STATES.map((s) => (
            <li key={s}>
              <a
                href={`/publisher/requests?state=${s}`}
                aria-current={s === props.state ? "page" : undefined}
              >
                {s[0].toUpperCase() + s.slice(1)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {props.requests.length === 0
        ? <p class="card muted">{EMPTY[props.state]}</p>
        : props.requests.map((r) => (
          <Request
            key={r.id}
            request={r}
            csrf={props.who.csrfToken}
            failed={props.failed?.id === r.id ? props.failed : null}
          />
        ))}
      {props.requests.length >= props.limit
        ? <p class="muted small">Showing the latest {props.limit}.</p>
        : null}
    </ConsoleShell>
  );
}

function useWords(r: RequestView): string {
  const use = useInWords(r.useCase);
  return r.enterprise ? `your enterprise license (and ${use})` : use;
}

function Request(props: { request: RequestView; csrf: string; failed: FailedDecision | null }) {
  const r = props.request;
  const f = props.failed;
  const typed = (action: string, name: string) => f?.action === action ? f.values[name] ?? "" : "";
  const headingId = `req-${r.id}-title`;
  return (
    <article class="card" id={`req-${r.id}`} aria-labelledby={headingId}>
      <h2 id={headingId}>Asks for {useWords(r)}</h2>
      <dl class="facts">
        <dt>From</dt>
        <dd>
          <CallerName caller={r.requester} />
        </dd>
        {r.contact
          ? (
            <>
              <dt>Contact</dt>
              <dd>{r.contact}</dd>
            </>
          )
          : null}
        <dt>Asked</dt>
        <dd>
          <When iso={r.createdAt} />
        </dd>
        <dt>State</dt>
        <dd>
          <span class={`tag ${r.state === "approved" ? "ok" : r.state === "denied" ? "err" : ""}`}>
            {r.state}
          </span>
          {r.decidedAt
            ? (
              <>
                {" "}on <When iso={r.decidedAt} />
              </>
            )
            : null}
        </dd>
        {r.monthlyPriceUsdCents != null
          ? (
            <>
              <dt>Price</dt>
              <dd>{formatUsd(r.monthlyPriceUsdCents)} a month</dd>
            </>
          )
          : null}
        {r.termMonths != null
          ? (
            <>
              <dt>Term</dt>
              <dd>{plural(r.termMonths, "month")}</dd>
            </>
          )
          : null}
        {r.maxMonthlyUsdCents != null
          ? (
            <>
              <dt>Pays at most</dt>
              <dd>{formatUsd(r.maxMonthlyUsdCents)} a month</dd>
            </>
          )
          : null}
        {r.offer
          ? (
            <>
              <dt>Offer</dt>
              <dd>{offerWords(r.offer)}</dd>
            </>
          )
          : null}
        {r.reason
          ? (
            <>
              <dt>Reason</dt>
              <dd>{r.reason}</dd>
            </>
          )
          : null}
        {r.licenseId
          ? (
            <>
              <dt>License</dt>
              <dd>
                <code>{r.licenseId}</code>
              </dd>
            </>
          )
          : null}
      </dl>
      <h3 class="small">Their message</h3>
      <blockquote class="message">{r.message}</blockquote>
      {f ? <p class="problem" role="alert">{f.problem}</p> : null}
      {r.state === "pending"
        ? (
          <div class="decide">
            <form method="post" action={`/publisher/requests/${r.id}/approve`}>
              <CsrfField token={props.csrf} />
              <label for={`price-${r.id}`}>Price (USD a month)</label>
              <p class="hint" id={`price-${r.id}-hint`}>Leave empty for your standard terms.</p>
              <input
                id={`price-${r.id}`}
                name="priceUsd"
                type="number"
                min="0"
                step="0.01"
                aria-describedby={`price-${r.id}-hint`}
                value={typed("approve", "priceUsd")}
              />
              <label for={`term-${r.id}`}>Term (months)</label>
              <input
                id={`term-${r.id}`}
                name="termMonths"
                type="number"
                min="1"
                step="1"
                value={typed("approve", "termMonths")}
              />
              <label for={`days-${r.id}`}>Offer open for (days)</label>
              <p class="hint" id={`days-${r.id}-hint`}>
                The buyer accepts or declines; nothing is billed before. Default 14.
              </p>
              <input
                id={`days-${r.id}`}
                name="expiresInDays"
                type="number"
                min="1"
                max="90"
                step="1"
                aria-describedby={`days-${r.id}-hint`}
                value={typed("approve", "expiresInDays")}
              />
              <label for={`note-${r.id}`}>Note to the buyer (optional)</label>
              <input
                id={`note-${r.id}`}
                name="note"
                maxLength={1000}
                value={typed("approve", "note")}
              />
              <p>
                <button type="submit">Approve with this offer</button>
              </p>
            </form>
            <form method="post" action={`/publisher/requests/${r.id}/deny`}>
              <CsrfField token={props.csrf} />
              <label for={`reason-${r.id}`}>Reason (optional)</label>
              <p class="hint" id={`reason-${r.id}-hint`}>Kept with the request.</p>
              <textarea
                id={`reason-${r.id}`}
                name="reason"
                maxLength={2000}
                aria-describedby={`reason-${r.id}-hint`}
              >
                {typed("deny", "reason")}
              </textarea>
              <p>
                <button type="submit" class="danger">Deny</button>
              </p>
            </form>
          </div>
        )
        : null}
    </article>
  );
}

/** Where the offer stands, in words. */
function offerWords(o: NonNullable<RequestView["offer"]>): string {
  switch (o.state) {
    case "open":
      return `Open until ${
        when(o.expiresAt)
      }: waiting for the buyer to accept (nothing billed yet).`;
    case "accepted":
      return `Accepted on ${when(o.decidedAt!)}: the license is active and billed.`;
    case "declined":
      return `Declined on ${when(o.decidedAt!)}` +
        (o.declineReason ? `: ${o.declineReason}` : ".");
    default:
      return `Expired on ${when(o.expiresAt)} without an answer.`;
  }
}
