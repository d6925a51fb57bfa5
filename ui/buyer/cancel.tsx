/**
 * The cancel confirmation page (/buyer/licenses/<id>/cancel): what canceling does, stated before
 * it happens from GET /api/marketplace/licenses/<id>/cancel (until when the license keeps its
 * uses, what is credited and charged, the renewal that will not be billed), and the form that
 * confirms it.
 */
import type { z } from "zod";
import type { cancelEffectSchema } from "../../server/surfaces/marketplace/offer_schemas.ts";
import { billingDay, CsrfField, when } from "../console/shell.tsx";
import { formatUsd } from "../../server/platform/money.ts";
import { usesInWords } from "../../server/platform/words.ts";
import { BuyerShell, type BuyerWho } from "./shell.tsx";

/** GET /api/marketplace/licenses/<id>/cancel. */
export type CancelView = z.output<typeof cancelEffectSchema>;

/** What the confirmation page shows. */
export interface CancelProps {
  who: BuyerWho;
  license: CancelView;
  publisherName: string;
  problem?: string | null;
}

/** GET /buyer/licenses/<id>/cancel. */
export function CancelPage(props: CancelProps) {
  const l = props.license;
  const e = l.effect;
  const what = `${usesInWords(l.useCases)} license of ${props.publisherName}`;
  const open = l.state === "pending" || (l.state === "active" && !l.cancelsAt);
  return (
    <BuyerShell
      who={props.who}
      section="licenses"
      title={`Cancel the ${what}?`}
      problem={props.problem}
    >
      <section class="card" aria-labelledby="effect-title">
        <h2 id="effect-title">What happens if you cancel</h2>
        <dl class="facts">
          <dt>Access</dt>
          <dd>
            {e.mode === "period_end"
              ? `The license keeps its uses until ${when(e.accessUntil)}, then ends.`
              : "The license ends now."}
          </dd>
          <dt>Credited</dt>
          <dd>
            {formatUsd(e.creditUsdCents)}: the period already paid runs to its end, so nothing is
            refunded.
          </dd>
          <dt>Charged</dt>
          <dd>{formatUsd(e.chargedUsdCents)}: canceling costs nothing.</dd>
          <dt>Next renewal</dt>
          <dd>
            {e.forgoneRenewalUsdCents > 0 && l.renewsAt
              ? `Not billed: the ${formatUsd(e.forgoneRenewalUsdCents)} due on ${
                billingDay(l.renewsAt)
              } will not be charged.`
              : e.forgoneRenewalUsdCents > 0
              ? `Not billed: ${formatUsd(e.forgoneRenewalUsdCents)} a month is no longer charged.`
              : "None: nothing more would have been billed."}
          </dd>
          <dt>After that</dt>
          <dd>
            Reads of {usesInWords(l.useCases)}{" "}
            are charged per use at the publisher's prices, within your budgets.
          </dd>
        </dl>
        {open
          ? (
            <form
              method="post"
              action={`/buyer/licenses/${encodeURIComponent(l.licenseId)}/cancel`}
            >
              <CsrfField token={props.who.csrfToken} />
              <input type="hidden" name="confirm" value="yes" />
              <p class="actions">
                <button type="submit" class="danger">Yes, cancel the license</button>{" "}
                <a href="/buyer/licenses">Keep it</a>
              </p>
            </form>
          )
          : (
            <p>
              This license is already {l.cancelsAt ? "canceled" : l.state}.{" "}
              <a href="/buyer/licenses">Back to licenses</a>
            </p>
          )}
      </section>
    </BuyerShell>
  );
}
