/**
 * GET /publisher/payouts/payee: where payouts go (issue 38 part 5). What is on file is shown masked;
 * the form replaces it. One form for the three ways to be paid: the fields of the chosen one count.
 */
import type { z } from "zod";
import type { payeeAnswerSchema } from "../../server/surfaces/manage/payee_schemas.ts";
import { FieldError, type FieldProblem, invalidIf } from "../field_error.tsx";
import { ConsoleShell, CsrfField, When, type Who } from "./shell.tsx";

/** GET /api/publisher/payee. */
export type PayeeAnswer = z.output<typeof payeeAnswerSchema>;

const METHODS = {
  iban: "Bank account with an IBAN (SEPA and most countries)",
  us_account: "US bank account (account and routing number)",
  email: "Payment provider account (PayPal, Wise, Payoneer)",
} as const;

/** What the page shows. */
export interface PayeeProps {
  who: Who;
  answer: PayeeAnswer;
  notice?: string | null;
  problem?: string | null;
  fieldProblem?: FieldProblem | null;
  /** What the visitor typed, kept when the form is refused (never the saved numbers). */
  typed?: Record<string, string>;
}

function Text(
  props: {
    name: string;
    label: string;
    hint?: string;
    problem?: FieldProblem | null;
    value?: string;
    autocomplete?: string;
  },
) {
  const hint = props.hint ? `${props.name}-hint` : undefined;
  return (
    <>
      <label for={props.name}>{props.label}</label>
      {props.hint ? <p class="hint" id={hint}>{props.hint}</p> : null}
      <input
        type="text"
        {...invalidIf(props.problem, props.name, hint)}
        id={props.name}
        name={props.name}
        value={props.value ?? ""}
        autocomplete={props.autocomplete ?? "off"}
      />
      <FieldError problem={props.problem} name={props.name} />
    </>
  );
}

/** The payee page. */
export function PayeePage(props: PayeeProps) {
  const p = props.answer.payee;
  const t = props.typed ?? {};
  const fp = props.fieldProblem;
  const method = t.method ?? p?.method ?? "iban";
  return (
    <ConsoleShell
      who={props.who}
      section="payouts"
      title="Where we pay you"
      notice={props.notice}
      problem={props.problem}
    >
      <section class="card" aria-labelledby="onfile-title">
        <h2 id="onfile-title">On file</h2>
        {p
          ? (
            <dl class="facts">
              <dt>Account holder</dt>
              <dd>{p.legalName}</dd>
              <dt>Account</dt>
              <dd>{p.masked}</dd>
              <dt>Country and currency</dt>
              <dd>{p.country}, {p.currency}</dd>
              <dt>Last changed</dt>
              <dd>
                <When iso={p.updatedAt} />
              </dd>
            </dl>
          )
          : (
            <p>
              Nothing yet. Your payouts are held until you say where to send them.
            </p>
          )}
        <p class="hint">
          Stored encrypted; only the last four characters are ever shown. Payouts are sent in US
          dollars; your bank or provider converts them to your account's currency.
        </p>
      </section>
      <section class="card" aria-labelledby="change-title">
        <h2 id="change-title">{p ? "Change where we pay you" : "Say where we pay you"}</h2>
        <form method="post" action="/publisher/payouts/payee">
          <CsrfField token={props.who.csrfToken} />
          <Text
            name="legalName"
            label="Account holder's legal name"
            problem={fp}
            value={t.legalName ?? p?.legalName}
            autocomplete="organization"
          />
          <Text
            name="country"
            label="Country (two letters, such as DE or US)"
            problem={fp}
            value={t.country ?? p?.country}
            autocomplete="country"
          />
          <Text
            name="currency"
            label="Account currency (three letters, such as EUR or USD)"
            problem={fp}
            value={t.currency ?? p?.currency}
          />
          <fieldset>
            <legend>How to pay you</legend>
            {Object.entries(METHODS).map(([value, words]) => (
              <label key={value} class="check">
                <input type="radio" name="method" value={value} checked={method === value} />{" "}
                {words}
              </label>
            ))}
            <FieldError problem={fp} name="method" />
          </fieldset>
          <fieldset>
            <legend>Bank account with an IBAN</legend>
            <Text name="iban" label="IBAN" problem={fp} value={t.iban} />
            <Text name="bic" label="BIC / SWIFT code (optional)" problem={fp} value={t.bic} />
          </fieldset>
          <fieldset>
            <legend>US bank account</legend>
            <Text
              name="accountNumber"
              label="Account number"
              problem={fp}
              value={t.accountNumber}
            />
            <Text
              name="routingNumber"
              label="Routing number (9 digits)"
              problem={fp}
              value={t.routingNumber}
            />
            <label for="accountType">Account type</label>
            <select id="accountType" name="accountType">
              <option value="checking" selected={t.accountType !== "savings"}>Checking</option>
              <option value="savings" selected={t.accountType === "savings"}>Savings</option>
            </select>
          </fieldset>
          <fieldset>
            <legend>Payment provider account</legend>
            <label for="provider">Provider</label>
            <select id="provider" name="provider">
              {(["paypal", "wise", "payoneer"] as const).map((v) => (
                <option key={v} value={v} selected={t.provider === v}>
                  {{ paypal: "PayPal", wise: "Wise", payoneer: "Payoneer" }[v]}
                </option>
              ))}
            </select>
            <Text
              name="email"
              label="The account's email"
              problem={fp}
              value={t.email}
              autocomplete="email"
            />
          </fieldset>
          <p>
            <button type="submit">Save</button>
          </p>
        </form>
      </section>
      <p>
        <a href="/publisher/payouts">Back to payouts</a>
      </p>
    </ConsoleShell>
  );
}
