/** Keys & clients: the API key (hint, rotation), the portal password, and the MCP installs. */
import { FieldError, type FieldProblem, invalidIf } from "../field_error.tsx";
import { KeyOnce, NewPasswordField } from "../console/account.tsx";
import { Scroll } from "../console/scroll.tsx";
import { CsrfField, When } from "../console/shell.tsx";
import type { z } from "zod";
import type { accountSchema, clientListSchema } from "../../server/surfaces/marketplace/schemas.ts";
import { BuyerKeyUse } from "./account.tsx";
import { BuyerShell, type BuyerWho } from "./shell.tsx";

/** GET /api/marketplace/account. */
export type AccountView = z.output<typeof accountSchema>;

/** One entry of GET /api/marketplace/clients. */
export type ClientView = z.output<typeof clientListSchema>["clients"][number];

/** A form the API refused: which one, its words, and what was typed (never passwords). */
export interface FailedForm {
  form: "rotate" | "password" | "client";
  problem: string;
  /** The password form's problem when it is one field's (shown beside it, not above). */
  field?: FieldProblem | null;
  clientId?: string;
}

/** What the page shows. */
export interface KeysProps {
  who: BuyerWho;
  account: AccountView;
  clients: ClientView[];
  newKey?: string | null;
  notice?: string | null;
  failed?: FailedForm | null;
}

/** GET /buyer/keys. */
export function KeysPage(props: KeysProps) {
  const { account, failed } = props;
  const fieldProblem = failed?.field ?? null;
  const problem = (form: FailedForm["form"]) =>
    failed?.form === form && !fieldProblem
      ? <p class="problem" role="alert">{failed.problem}</p>
      : null;
  const installs = props.clients.filter((c) => c.kind === "dynamic");
  return (
    <BuyerShell who={props.who} section="keys" title="Keys & clients" notice={props.notice}>
      {props.newKey
        ? (
          <KeyOnce
            title="Your new API key"
            apiKey={props.newKey}
            next="/buyer/keys"
            nextLabel="Done"
          >
            <BuyerKeyUse />
          </KeyOnce>
        )
        : null}
      <section class="card" aria-labelledby="key-title">
        <h2 id="key-title">API key</h2>
        <p>
          Your live key ends in{" "}
          <code>{account.keyHint ?? "—"}</code>. Folio keeps only its hash, so it cannot show it
          again; if it is lost or has leaked, rotate it.
        </p>
        {problem("rotate")}
        <p class="hint" id="rotate-hint">
          The current key stops working at once, everywhere it is used. You confirm on the next
          page.
        </p>
        <p>
          <a class="button danger" href="/buyer/keys/rotate" aria-describedby="rotate-hint">
            Rotate the key…
          </a>
        </p>
      </section>

      <section class="card" aria-labelledby="password-title">
        <h2 id="password-title">{account.hasPassword ? "Change password" : "Set a password"}</h2>
        <p class="hint">
          {account.hasPassword
            ? "Signing in with your email needs it. Changing it signs out your other sessions."
            : "With a password you can sign in with your email instead of the API key."}
        </p>
        {problem("password")}
        <form method="post" action="/buyer/keys/password">
          <CsrfField token={props.who.csrfToken} />
          <input type="hidden" name="username" value={account.email} autocomplete="username" />
          {account.hasPassword
            ? (
              <>
                <label for="currentPassword">Current password</label>
                <input
                  {...invalidIf(fieldProblem, "currentPassword")}
                  id="currentPassword"
                  name="currentPassword"
                  type="password"
                  required
                  autocomplete="current-password"
                />
                <FieldError problem={fieldProblem} name="currentPassword" />
              </>
            )
            : null}
          <NewPasswordField label="New password" problem={fieldProblem} />
          <p>
            <button type="submit">
              {account.hasPassword ? "Change password" : "Set password"}
            </button>
          </p>
        </form>
      </section>

      <section class="card" aria-labelledby="clients-title">
        <h2 id="clients-title">MCP clients</h2>
        <p class="hint">
          An MCP client that registered itself with a publisher (OAuth) reads as anonymous until you
          claim it here; then your licenses apply to it and its metered reads are on your statement.
        </p>
        {installs.length === 0
          ? <p class="muted">No MCP client is registered to you yet; your key's reads need none.</p>
          : (
            <Scroll label="Registered MCP clients">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Client id</th>
                    <th scope="col">Name</th>
                    <th scope="col">Email at consent</th>
                    <th scope="col">Registered</th>
                  </tr>
                </thead>
                <tbody>
                  {installs.map((c) => (
                    <tr key={c.clientId}>
                      <td>
                        <code>{c.clientId}</code>
                      </td>
                      <td>{c.name ?? "—"}</td>
                      <td>{c.email ?? "—"}</td>
                      <td class="nowrap">
                        <When iso={c.createdAt} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          )}
        {problem("client")}
        <form method="post" action="/buyer/keys/clients" class="row filter">
          <CsrfField token={props.who.csrfToken} />
          <div>
            <label for="clientId">Client id</label>
            <input
              id="clientId"
              name="clientId"
              type="text"
              required
              maxLength={200}
              value={failed?.form === "client" ? failed.clientId ?? "" : ""}
            />
          </div>
          <button type="submit">Claim this client</button>
        </form>
      </section>
    </BuyerShell>
  );
}
