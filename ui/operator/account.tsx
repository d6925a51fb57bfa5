/**
 * The operators and account page (/operator/account): who is signed in, recovery codes left and
 * new ones, the node's operators (made by the admin CLI), and operator keys: made (shown once),
 * listed by hint, revoked.
 */
import type { z } from "zod";
import type {
  operatorKeySchema,
  operatorListSchema,
} from "../../server/surfaces/operator/schemas.ts";
import { FieldError, type FieldProblem, invalidIf } from "../field_error.tsx";
import { KeyOnce } from "../console/account.tsx";
import { CsrfField, When, when } from "../console/shell.tsx";
import { Scroll } from "../console/scroll.tsx";
import { OperatorShell, type OperatorWho } from "./shell.tsx";

type Key = z.output<typeof operatorKeySchema>;
type Operators = z.output<typeof operatorListSchema>["operators"];

/** What the page shows. */
export interface OperatorAccountProps {
  who: OperatorWho;
  operators: Operators;
  keys: Key[];
  notice?: string | null;
  problem?: string | null;
  fieldProblem?: FieldProblem | null;
  keyName?: string;
}

/** GET /operator/account. */
export function OperatorAccountPage(props: OperatorAccountProps) {
  const emailOf = new Map(props.operators.map((o) => [o.id, o.email]));
  return (
    <OperatorShell
      who={props.who}
      section="account"
      title="Operators & account"
      notice={props.notice}
      problem={props.problem}
    >
      <section class="card" aria-labelledby="you-title">
        <h2 id="you-title">You</h2>
        <dl class="facts">
          <dt>Email</dt>
          <dd>{props.who.email}</dd>
          <dt>Second factor</dt>
          <dd>Authenticator app</dd>
          <dt>Recovery codes left</dt>
          <dd>{props.who.recoveryCodesLeft} of 10</dd>
        </dl>
        <form method="post" action="/operator/recovery-codes">
          <CsrfField token={props.who.csrfToken} />
          <p class="hint">New codes replace the old ones, which stop working.</p>
          <button type="submit" class="secondary">Make new recovery codes</button>
        </form>
      </section>

      <section class="card" aria-labelledby="keys-title">
        <h2 id="keys-title">Operator keys</h2>
        <p class="muted">
          For scripts on the operator API:{" "}
          <code>Authorization: Bearer opk_…</code>. A key acts as the operator who made it, and
          everything it does is in the audit log.
        </p>
        {props.keys.length === 0 ? <p>No operator keys yet.</p> : (
          <Scroll label="Operator keys">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Made by</th>
                  <th scope="col">Made</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {props.keys.map((k) => (
                  <tr key={k.id}>
                    <td>{k.name}</td>
                    <td class="nowrap">
                      <code>{k.hint}</code>
                    </td>
                    <td>{emailOf.get(k.operatorId) ?? k.operatorId}</td>
                    <td class="nowrap">
                      <When iso={k.createdAt} />
                    </td>
                    <td>
                      {k.revokedAt
                        ? `Revoked ${when(k.revokedAt)}`
                        : (
                          <form method="post" action={`/operator/account/keys/${k.id}/revoke`}>
                            <CsrfField token={props.who.csrfToken} />
                            <button
                              type="submit"
                              class="danger"
                              aria-label={`Revoke the key ${k.name}`}
                            >
                              Revoke
                            </button>
                          </form>
                        )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
        <form method="post" action="/operator/account/keys" aria-labelledby="new-key-title">
          <h3 id="new-key-title">Make a key</h3>
          <CsrfField token={props.who.csrfToken} />
          <label for="name">What it is for</label>
          <input
            type="text"
            id="name"
            name="name"
            required
            maxLength={80}
            value={props.keyName ?? ""}
            {...invalidIf(props.fieldProblem, "name")}
          />
          <FieldError problem={props.fieldProblem} name="name" />
          <p>
            <button type="submit">Make the key</button>
          </p>
        </form>
      </section>

      <section class="card" aria-labelledby="operators-title">
        <h2 id="operators-title">Operators of this node</h2>
        <Scroll label="Operators">
          <table>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Second factor</th>
                <th scope="col">Since</th>
              </tr>
            </thead>
            <tbody>
              {props.operators.map((o) => (
                <tr key={o.id}>
                  <td>{o.email}</td>
                  <td>{o.secondFactor ? "Set up" : "Not yet (set up at first sign-in)"}</td>
                  <td class="nowrap">
                    <When iso={o.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
        <p class="hint">
          Operators are added on the server: <code>deno task folio create-operator --email=…</code>
        </p>
      </section>
    </OperatorShell>
  );
}

/** After POST /operator/account/keys: the key, once. */
export function OperatorKeyPage(props: { who: OperatorWho; apiKey: string; name: string }) {
  return (
    <OperatorShell who={props.who} section="account" title="New operator key">
      <KeyOnce
        apiKey={props.apiKey}
        title={`Operator key “${props.name}”`}
        next="/operator/account"
        nextLabel="Back to the account"
      >
        <p>
          Scripts use it as <code>Authorization: Bearer opk_…</code>{" "}
          on the operator API; revoke it on this page if it leaks.
        </p>
      </KeyOnce>
    </OperatorShell>
  );
}
