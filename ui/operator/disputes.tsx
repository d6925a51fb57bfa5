/**
 * The operator's Disputes page: every dispute (by state), escalated ones first to decide; each
 * undecided one has the same accept and refuse forms as the publisher's console.
 */
import {
  DecideForms,
  DisputeFacts,
  DisputeFilter,
  DisputeItems,
  DisputePager,
  type DisputePageView,
  type FailedDispute,
} from "../console/disputes.tsx";
import { formatUsd, microsToCents } from "../../server/platform/money.ts";
import { OperatorShell, type OperatorWho } from "./shell.tsx";

/** GET /operator/disputes. */
export function OperatorDisputesPage(
  props: {
    who: OperatorWho;
    page: DisputePageView;
    state: string | null;
    notice?: string | null;
    problem?: string | null;
    failed?: FailedDispute | null;
  },
) {
  return (
    <OperatorShell
      who={props.who}
      section="disputes"
      title="Disputes"
      notice={props.notice}
      problem={props.problem ?? (props.failed ? "Not done: see the dispute below." : null)}
    >
      <p class="hint">
        Buyers' disputes of charged items. A dispute its publisher leaves undecided past its
        deadline is escalated to you; you may decide any undecided one. Accepting issues a credit
        note at once. Every decision is in the audit log.
      </p>
      <DisputeFilter base="/operator/disputes" state={props.state} />
      {props.page.disputes.length === 0
        ? (
          <p class="card">
            {props.state
              ? "No disputes in this state."
              : "No disputes: a buyer's dispute shows here once it is raised."}
          </p>
        )
        : props.page.disputes.map((d) => (
          <article class="card" id={d.id} key={d.id} aria-labelledby={`${d.id}-title`}>
            <h2 id={`${d.id}-title`}>
              {d.buyer.name} against {d.publisher.name}:{" "}
              {formatUsd(microsToCents(d.disputedUsdMicros))}
            </h2>
            <DisputeFacts d={d} side="operator" />
            <DisputeItems d={d} />
            {props.failed?.id === d.id
              ? <p class="problem" role="alert">{props.failed.problem}</p>
              : null}
            {d.state === "open" || d.state === "escalated"
              ? <DecideForms d={d} base="/operator/disputes" csrf={props.who.csrfToken} />
              : null}
          </article>
        ))}
      <DisputePager base="/operator/disputes" page={props.page} state={props.state} />
    </OperatorShell>
  );
}
