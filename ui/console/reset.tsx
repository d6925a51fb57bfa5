/** "Forgot password?" in either portal: asking for a link, and choosing a new password with it. */
import type { FieldProblem } from "../field_error.tsx";
import { AuthPage, EmailField, NewPasswordField } from "./account.tsx";
import { CsrfField } from "./shell.tsx";

/** Which portal the pages belong to. */
export interface ResetPortal {
  /** Where it is mounted: "/publisher", "/buyer". */
  home: string;
  /** "publisher console", "buyer portal". */
  name: string;
}

/** GET /…/forgot: the email form, or with email off on this node, why there is none. */
export function ForgotPage(
  props: {
    portal: ResetPortal;
    csrf: string;
    email: string;
    emailOn: boolean;
    sent?: string | null;
    problem?: string | null;
  },
) {
  const { home } = props.portal;
  return (
    <AuthPage
      title="Forgot password"
      heading="Forgot your password?"
      problem={props.problem}
      notice={props.sent}
    >
      {props.emailOn
        ? (
          <form method="post" action={`${home}/forgot`} class="card">
            <p class="hint" id="forgot-hint">
              Type the email you sign in to your {props.portal.name}{" "}
              with. We send a link to choose a new password; it works once, for one hour.
            </p>
            <CsrfField token={props.csrf} />
            <EmailField value={props.email} autocomplete="username" />
            <p>
              <button type="submit">Send the link</button>
            </p>
          </form>
        )
        : (
          <p class="card">
            Email is off on this node, so a reset link cannot be sent. Ask the person who runs this
            Folio to reset your password.
          </p>
        )}
      <p>
        <a href={`${home}/login`}>Back to sign in</a>
      </p>
    </AuthPage>
  );
}

/** GET /…/reset?token=…: the new password form, the link's token carried along. */
export function ResetPage(
  props: {
    portal: ResetPortal;
    csrf: string;
    token: string;
    problem?: string | null;
    fieldProblem?: FieldProblem | null;
  },
) {
  const { home } = props.portal;
  return (
    <AuthPage title="Choose a new password" heading="Choose a new password" problem={props.problem}>
      {props.token
        ? (
          <form method="post" action={`${home}/reset`} class="card">
            <p class="hint">Every session of your account is signed out when it changes.</p>
            <CsrfField token={props.csrf} />
            <input type="hidden" name="token" value={props.token} />
            <NewPasswordField label="New password" problem={props.fieldProblem} />
            <p>
              <button type="submit">Change the password</button>
            </p>
          </form>
        )
        : null}
      <p>
        <a href={`${home}/forgot`}>Ask for a new link</a> · <a href={`${home}/login`}>Sign in</a>
      </p>
    </AuthPage>
  );
}
