/**
 * The buyer's license requests and the publishers' offers (/buyer/offers): each request with where
 * it stands (a denial with the publisher's reason, an expiry with its date), and each open offer
 * with what accepting bills now and monthly after, and its accept and decline forms.
 */
import type { z } from "zod";
import type { buyerRequestSchema } from "../../server/surfaces/marketplace/offer_schemas.ts";
import { CsrfField, type LinkedWords, ProblemWords, When, when } from "../console/shell.tsx";
import { formatUsd } from "../../server/platform/money.ts";
import { plural, usesInWords } from "../../server/platform/words.ts";
import { BuyerShell, type BuyerWho } from "./shell.tsx";

/** One of GET /api/marketplace/license-requests. */
export type BuyerRequestView = z.output<typeof buyerRequestSchema>;

/** What the offers page shows. */
export interface OffersProps {
  who: BuyerWho;
  requests: BuyerRequestView[];
  notice?: string | null;
  problem?: string | null;
  /** The offer an action on this page failed for, with the API's problem. */
  failed?: { offerId: string; problem: string; linked?: LinkedWords | null } | null;
}

const STATE_WORDS: Record<BuyerRequestView["state"], string> = {
  pending: "waiting for the publisher",
  offered: "offer waiting for you",
  accepted: "accepted",
  declined: "declined",
  expired: "offer expired",
  denied: "denied",
};

/** GET /buyer/offers. */
export function OffersPage(props: OffersProps) {
  return (
    <BuyerShell
      who={props.who}
      section="offers"
      title="Requests & offers"
      notice={props.notice}
      problem={props.problem ?? (props.failed ? "Not done: see the offer below." : null)}
    >
      {props.requests.length === 0
        ? (
          <section class="card">
            <h2>No license requests yet</h2>
            <p>
              When you ask a publisher for a license (the form on each publisher's page in the{" "}
              <a href="/buyer/catalog">Catalog</a>, or your agent's license request tool), the
              request and the publisher's answer appear here. A publisher answers with an offer you
              accept or decline: nothing is billed before you accept.
            </p>
          </section>
        )
        : props.requests.map((r) => (
          <Request
            key={r.requestId}
            r={r}
            csrf={props.who.csrfToken}
            failed={props.failed && props.failed.offerId === r.offer?.offerId ? props.failed : null}
          />
        ))}
    </BuyerShell>
  );
}

function Request(
  props: {
    r: BuyerRequestView;
    csrf: string;
    failed: { problem: string; linked?: LinkedWords | null } | null;
  },
) {
  const { r } = props;
  const o = r.offer;
  const heading = `req-${r.requestId}-title`;
  const use = usesInWords([r.useCase]);
  return (
    <article class="card" id={r.requestId} aria-labelledby={heading}>
      <h2 id={heading}>
        {r.enterprise ? `Enterprise license and ${use}` : use} from {r.publisherName}
      </h2>
      <dl class="facts">
        <dt>State</dt>
        <dd>
          <span class={`tag state-${r.state}`}>{STATE_WORDS[r.state]}</span>
        </dd>
        <dt>Asked</dt>
        <dd>
          <When iso={r.createdAt} />
        </dd>
        <dt>Your message</dt>
        <dd>{r.message}</dd>
        {r.maxMonthlyUsdCents !== null
          ? (
            <>
              <dt>Your maximum</dt>
              <dd>{formatUsd(r.maxMonthlyUsdCents)} a month</dd>
            </>
          )
          : null}
        {r.state === "denied"
          ? (
            <>
              <dt>Publisher's reason</dt>
              <dd>{r.reason ?? "None given."}</dd>
            </>
          )
          : null}
        {o
          ? (
            <>
              <dt>Offer</dt>
              <dd>
                {usesInWords(o.useCases)} for {formatUsd(o.monthlyPriceUsdCents)} a month
                {o.termMonths ? `, for ${plural(o.termMonths, "month")}` : ", until you cancel"}
              </dd>
              {o.note
                ? (
                  <>
                    <dt>Publisher's note</dt>
                    <dd>{o.note}</dd>
                  </>
                )
                : null}
              <dt>{o.state === "expired" ? "Expired" : "Open until"}</dt>
              <dd>
                <When iso={o.expiresAt} />
              </dd>
              {o.declineReason
                ? (
                  <>
                    <dt>Your reason</dt>
                    <dd>{o.declineReason}</dd>
                  </>
                )
                : null}
            </>
          )
          : null}
      </dl>
      {props.failed
        ? (
          <p class="problem" role="alert">
            <ProblemWords problem={props.failed.problem} linked={props.failed.linked} />
          </p>
        )
        : null}
      {o?.state === "open" && o.acceptNow
        ? (
          <div class="decide">
            <form method="post" action={`/buyer/offers/${encodeURIComponent(o.offerId)}/accept`}>
              <CsrfField token={props.csrf} />
              <input type="hidden" name="quotedAt" value={o.acceptNow.quotedAt} />
              <p>
                Accepting bills {formatUsd(o.acceptNow.firstChargeUsdCents)}{" "}
                on this month's statement: the monthly price for the rest of the month, counted from
                when this page was shown ({when(o.acceptNow.quotedAt)}). That is the amount billed
                if you accept within the hour; after that, the page shows you the new amount first.
                Then {formatUsd(o.monthlyPriceUsdCents)} on the 1st of each month from{" "}
                <When iso={o.acceptNow.periodEnd} billing />. Your budgets apply.
              </p>
              <p>
                <button type="submit">
                  Accept and pay {formatUsd(o.acceptNow.firstChargeUsdCents)}
                </button>
              </p>
            </form>
            <form method="post" action={`/buyer/offers/${encodeURIComponent(o.offerId)}/decline`}>
              <CsrfField token={props.csrf} />
              <label for={`reason-${o.offerId}`}>Reason (optional, the publisher sees it)</label>
              <textarea id={`reason-${o.offerId}`} name="reason" maxLength={1000} />
              <p>
                <button type="submit" class="secondary">Decline</button>
              </p>
            </form>
          </div>
        )
        : null}
    </article>
  );
}
