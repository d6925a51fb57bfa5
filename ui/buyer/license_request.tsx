/**
 * The license request form of the publisher page (issue 42): a use the buyer holds no right to, a
 * message, and the most it will pay a month, posted to /buyer/catalog/<id>/request, which calls
 * POST /api/marketplace/license-requests and shows the request on /buyer/offers.
 */
import { FieldError, type FieldProblem, invalidIf } from "../field_error.tsx";
import { CsrfField } from "../console/shell.tsx";
import { usesInWords } from "../../server/platform/words.ts";

/** What the buyer typed, kept when the form is refused. */
export interface RequestTyped {
  useCase: string;
  message: string;
  maxMonthlyUsd: string;
  enterprise: boolean;
}

/** The request form's props. */
export interface RequestFormProps {
  csrf: string;
  publisherId: string;
  publisherName: string;
  /** The uses the buyer may ask for, in the order shown. */
  uses: readonly string[];
  /** The enterprise license's uses, when the publisher offers one. */
  enterpriseUses: readonly string[] | null;
  failed?:
    | { problem: { top: string | null; field: FieldProblem | null }; typed: RequestTyped }
    | null;
}

const EMPTY: RequestTyped = { useCase: "", message: "", maxMonthlyUsd: "", enterprise: false };

/** The "Ask for a license" card. */
export function RequestForm(props: RequestFormProps) {
  const typed = props.failed?.typed ?? EMPTY;
  const p = props.failed?.problem.field ?? null;
  return (
    <section class="card" aria-labelledby="request-title" id="request">
      <h2 id="request-title">Ask for a license</h2>
      <p class="hint">
        For a use you hold no right to here, or a price of your own. {props.publisherName}{" "}
        answers with an offer you accept or decline on{" "}
        <a href="/buyer/offers">Requests &amp; offers</a>, or with a reason. Nothing is billed
        before you accept an offer, and no offer can cost more than the most you name.
      </p>
      {props.failed?.problem.top
        ? <p class="problem" role="alert">{props.failed.problem.top}</p>
        : null}
      {props.uses.length === 0
        ? <p class="muted">You already hold every use {props.publisherName} licenses.</p>
        : (
          <form
            method="post"
            action={`/buyer/catalog/${encodeURIComponent(props.publisherId)}/request`}
          >
            <CsrfField token={props.csrf} />
            <label for="request-use">Use</label>
            <select id="request-use" name="useCase" {...invalidIf(p, "useCase")}>
              {props.uses.map((u) => (
                <option key={u} value={u} selected={typed.useCase === u}>{usesInWords([u])}</option>
              ))}
            </select>
            <FieldError problem={p} name="useCase" />
            {props.enterpriseUses
              ? (
                <label class="check">
                  <input type="checkbox" name="enterprise" value="on" checked={typed.enterprise} />
                  <span>
                    Ask for the enterprise license instead (it covers{" "}
                    {usesInWords(props.enterpriseUses)})
                  </span>
                </label>
              )
              : null}
            <label for="request-message">Message to the publisher</label>
            <p class="hint" id="request-message-hint">
              Who you are and what you want to do with the content (required).
            </p>
            <textarea
              id="request-message"
              name="message"
              required
              maxLength={2000}
              {...invalidIf(p, "message", "request-message-hint")}
            >
              {typed.message}
            </textarea>
            <FieldError problem={p} name="message" />
            <label for="request-max">The most you will pay a month, in dollars (optional)</label>
            <p class="hint" id="request-max-hint">
              For example 500. Leave it empty to let the publisher name a price.
            </p>
            <input
              id="request-max"
              name="maxMonthlyUsd"
              inputMode="decimal"
              value={typed.maxMonthlyUsd}
              {...invalidIf(p, "maxMonthlyUsd", "request-max-hint")}
            />
            <FieldError problem={p} name="maxMonthlyUsd" />
            <p>
              <button type="submit">Send the request</button>
            </p>
          </form>
        )}
    </section>
  );
}
