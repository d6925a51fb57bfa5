/** GET /publisher/account: who is signed in, and the form that changes the dashboard password. */
import { NewPasswordField } from "./account.tsx";
import { FieldError, type FieldProblem, invalidIf } from "../field_error.tsx";
import { ConsoleShell, CsrfField, type Who } from "./shell.tsx";

/** What the page shows. */
export interface AccountProps {
  who: Who;
  notice?: string | null;
  /** The API's refusal of the password form, shown above it (the passwords typed are not kept). */
  problem?: string | null;
  /** The refusal when it is one field's: shown beside that field instead. */
  fieldProblem?: FieldProblem | null;
}

/** The account page. */
export function AccountPage(props: AccountProps) {
  const { who } = props;
  return (
    <ConsoleShell who={who} section="account" title="Account" notice={props.notice}>
      <section class="card" aria-labelledby="password-title">
        <h2 id="password-title">Change password</h2>
        <p class="hint">
          You sign in as{" "}
          <strong>{who.email ?? "the publisher's owner"}</strong>. Changing the password signs out
          your other sessions; this one stays signed in.
        </p>
        {props.problem ? <p class="problem" role="alert">{props.problem}</p> : null}
        <form method="post" action="/publisher/account/password">
          <CsrfField token={who.csrfToken} />
          <input type="hidden" name="username" value={who.email ?? ""} autocomplete="username" />
          <label for="currentPassword">Current password</label>
          <input
            {...invalidIf(props.fieldProblem, "currentPassword")}
            id="currentPassword"
            name="currentPassword"
            type="password"
            required
            autocomplete="current-password"
          />
          <FieldError problem={props.fieldProblem} name="currentPassword" />
          <NewPasswordField label="New password" problem={props.fieldProblem} />
          <p>
            <button type="submit">Change password</button>
          </p>
        </form>
      </section>
      <p class="muted">
        The publisher key is in{" "}
        <a href="/publisher/settings#key">Settings</a>; rotating it also signs out your other
        sessions.
      </p>
    </ConsoleShell>
  );
}
