/**
 * Disputes (/buyer/disputes): the buyer's disputes of charges, where each stands, the decision and
 * its reason, and the credit note an accepted one issued. Disputes are opened from the Items page.
 */
import {
  DisputeFacts,
  DisputeFilter,
  DisputeItems,
  DisputePager,
  type DisputePageView,
} from "../console/disputes.tsx";
import { formatUsd, microsToCents } from "../../server/platform/money.ts";
import { BuyerShell, type BuyerWho } from "./shell.tsx";

/** GET /buyer/disputes. */
export function BuyerDisputesPage(
  props: {
    who: BuyerWho;
    page: DisputePageView;
    state: string | null;
    notice?: string | null;
    problem?: string | null;
  },
) {
  return (
    <BuyerShell
      who={props.who}
      section="disputes"
      title="Disputes"
      notice={props.notice}
      problem={props.problem}
    >
      <p class="hint">
        To dispute charges, tick them on the <a href="/buyer/items">Items</a>{" "}
        page and say what is wrong. The publisher accepts (in full or in part) or refuses with a
        reason; if it does not decide in time, the operator does. An accepted dispute issues a
        credit note: on a month still open it lowers that statement, on a closed month it is
        credited to your next invoice.
      </p>
      <DisputeFilter base="/buyer/disputes" state={props.state} />
      {props.page.disputes.length === 0
        ? (
          <p class="card">
            {props.state
              ? "No disputes in this state."
              : "No disputes. Charges you dispute from the Items page appear here with their decision."}
          </p>
        )
        : props.page.disputes.map((d) => (
          <article class="card" id={d.id} key={d.id} aria-labelledby={`${d.id}-title`}>
            <h2 id={`${d.id}-title`}>
              {d.publisher.name}: {formatUsd(microsToCents(d.disputedUsdMicros))} disputed
            </h2>
            <DisputeFacts d={d} side="buyer" />
            <DisputeItems d={d} />
          </article>
        ))}
      <DisputePager base="/buyer/disputes" page={props.page} state={props.state} />
    </BuyerShell>
  );
}
