/**
 * Disputes: a dispute's facts (shared by the buyer portal, the console and the operator's page)
 * and the console's Disputes page, where the publisher accepts (in full or for an amount) or
 * refuses with a reason each open dispute of charges for its content.
 */
import type { z } from "zod";
import { monthInWords } from "../../server/platform/local_time.ts";
import type {
  disputePageSchema,
  disputeSchema,
} from "../../server/domain/billing/dispute_schemas.ts";
import { formatUsd, microsToCents, usdDecimal } from "../../server/platform/money.ts";
import { plural } from "../../server/platform/words.ts";
import { ConsoleShell, CsrfField, When, type Who } from "./shell.tsx";

export type DisputeView = z.output<typeof disputeSchema>;
export type DisputePageView = z.output<typeof disputePageSchema>;

/** The states, in words a person uses. */
export const DISPUTE_WORDS: Record<DisputeView["state"], string> = {
  open: "waiting for the publisher",
  escalated: "with the operator",
  accepted: "accepted in full",
  partially_accepted: "accepted in part",
  refused: "refused",
};

const usd = (micros: number) => formatUsd(microsToCents(micros));

/** What a dispute is and where it stands. */
export function DisputeFacts(props: { d: DisputeView; side: "buyer" | "publisher" | "operator" }) {
  const { d } = props;
  return (
    <dl class="facts">
      <dt>State</dt>
      <dd>
        <span class={`tag state-${d.state}`}>{DISPUTE_WORDS[d.state]}</span>
      </dd>
      {props.side !== "publisher" ? <dt>Publisher</dt> : null}
      {props.side !== "publisher" ? <dd>{d.publisher.name}</dd> : null}
      {props.side !== "buyer" ? <dt>Buyer</dt> : null}
      {props.side !== "buyer" ? <dd>{d.buyer.name}</dd> : null}
      <dt>Opened</dt>
      <dd>
        <When iso={d.openedAt} />
      </dd>
      <dt>Disputed</dt>
      <dd>
        {usd(d.disputedUsdMicros)} over {plural(d.items.length, "item")}
      </dd>
      <dt>Buyer's reason</dt>
      <dd>{d.reason}</dd>
      {d.state === "open"
        ? (
          <>
            <dt>Goes to the operator</dt>
            <dd>
              <When iso={d.escalatesAt} />, if still undecided
            </dd>
          </>
        )
        : null}
      {d.decision
        ? (
          <>
            <dt>Decided</dt>
            <dd>
              <When iso={d.decision.at} /> by the {d.decision.by}
            </dd>
            {d.decision.reason
              ? (
                <>
                  <dt>Decision's reason</dt>
                  <dd>{d.decision.reason}</dd>
                </>
              )
              : null}
            <dt>Credited</dt>
            <dd>{usd(d.creditedUsdMicros)}</dd>
          </>
        )
        : null}
      {d.creditNote
        ? (
          <>
            <dt>Credit note</dt>
            <dd>
              {props.side === "buyer"
                ? (
                  <a href={`/api/marketplace/credit-notes/${d.creditNote.number}`}>
                    {d.creditNote.number}
                  </a>
                )
                : d.creditNote.number} — {d.creditNote.appliedTo === "statement"
                ? `an adjustment on the ${monthInWords(d.creditNote.statementMonth)} statement`
                : "credited to the next invoice"}
            </dd>
          </>
        )
        : null}
    </dl>
  );
}

/** The disputed items with what each billed and was credited. */
export function DisputeItems(props: { d: DisputeView }) {
  return (
    <details>
      <summary>The {plural(props.d.items.length, "item")}</summary>
      <ul>
        {props.d.items.map((i) => (
          <li key={i.itemId}>
            <code>{i.itemId}</code>: billed {usd(i.amountUsdMicros)}
            {props.d.decision ? `, credited ${usd(i.creditedUsdMicros)}` : ""}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** A decision the API refused: which dispute, its problem. */
export interface FailedDispute {
  id: string;
  problem: string;
}

/** The accept and refuse forms of an undecided dispute; `base` is where they post. */
export function DecideForms(
  props: { d: DisputeView; base: string; csrf: string },
) {
  const { d } = props;
  const action = `${props.base}/${encodeURIComponent(d.id)}`;
  return (
    <div class="decide">
      <form method="post" action={`${action}/accept`}>
        <CsrfField token={props.csrf} />
        <label for={`amount-${d.id}`}>
          Credit (USD, up to {usd(d.disputedUsdMicros)}; empty: all of it)
        </label>
        <input
          id={`amount-${d.id}`}
          name="amountUsd"
          inputMode="decimal"
          placeholder={usdDecimal(d.disputedUsdMicros)}
        />
        <label for={`accept-reason-${d.id}`}>Note to the buyer (optional)</label>
        <textarea id={`accept-reason-${d.id}`} name="reason" maxLength={2000} />
        <p>
          <button type="submit">Accept and issue a credit note</button>
        </p>
      </form>
      <form method="post" action={`${action}/refuse`}>
        <CsrfField token={props.csrf} />
        <label for={`refuse-reason-${d.id}`}>Why you refuse (the buyer sees it)</label>
        <textarea id={`refuse-reason-${d.id}`} name="reason" maxLength={2000} required />
        <p>
          <button type="submit" class="secondary">Refuse</button>
        </p>
      </form>
    </div>
  );
}

/** A filter by state and the pager of a disputes list. */
export function DisputeFilter(props: { base: string; state: string | null }) {
  return (
    <form method="get" action={props.base} class="card filters">
      <label>
        State
        <select name="state">
          <option value="">Any</option>
          {Object.entries(DISPUTE_WORDS).map(([k, v]) => (
            <option key={k} value={k} selected={props.state === k}>{v}</option>
          ))}
        </select>
      </label>
      <span class="row">
        <button type="submit">Filter</button>
      </span>
    </form>
  );
}

export function DisputePager(props: { base: string; page: DisputePageView; state: string | null }) {
  const q = (extra: Record<string, string>) =>
    new URLSearchParams({ ...(props.state ? { state: props.state } : {}), ...extra }).toString();
  return (
    <nav class="pager" aria-label="Dispute pages">
      <span>{plural(props.page.matching, "dispute")} in all</span>
      {props.page.nextCursor
        ? <a href={`${props.base}?${q({ cursor: props.page.nextCursor })}`}>Next page</a>
        : null}
    </nav>
  );
}

/** GET /publisher/disputes. */
export function ConsoleDisputesPage(
  props: {
    who: Who;
    page: DisputePageView;
    state: string | null;
    notice?: string | null;
    problem?: string | null;
    failed?: FailedDispute | null;
  },
) {
  return (
    <ConsoleShell
      who={props.who}
      section="disputes"
      title="Disputes"
      notice={props.notice}
      problem={props.problem ?? (props.failed ? "Not done: see the dispute below." : null)}
    >
      <p class="hint">
        Buyers may dispute charges for your content, with a reason, within the dispute window (60
        days from the charge unless the operator set another). Accept in full or for part of the
        amount, or refuse with a reason. Accepting issues a credit note at once: the buyer gets back
        what it paid, and your payout shrinks by your price share of it. A dispute left undecided
        goes to the operator.
      </p>
      <DisputeFilter base="/publisher/disputes" state={props.state} />
      {props.page.disputes.length === 0
        ? (
          <p class="card">
            {props.state
              ? "No disputes in this state."
              : "No disputes. Buyers' disputes of charges for your content appear here."}
          </p>
        )
        : props.page.disputes.map((d) => (
          <article class="card" id={d.id} key={d.id} aria-labelledby={`${d.id}-title`}>
            <h2 id={`${d.id}-title`}>
              {d.buyer.name}: {usd(d.disputedUsdMicros)} disputed
            </h2>
            <DisputeFacts d={d} side="publisher" />
            <DisputeItems d={d} />
            {props.failed?.id === d.id
              ? <p class="problem" role="alert">{props.failed.problem}</p>
              : null}
            {d.state === "open"
              ? <DecideForms d={d} base="/publisher/disputes" csrf={props.who.csrfToken} />
              : null}
          </article>
        ))}
      <DisputePager base="/publisher/disputes" page={props.page} state={props.state} />
    </ConsoleShell>
  );
}
