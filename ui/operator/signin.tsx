/**
 * Signing in to the operator console: the password, then the second factor (a code from the
 * authenticator app, or a recovery code), or on the first sign-in the enrolment of an
 * authenticator; and the one showing of the recovery codes.
 */
import { AuthPage, PasswordSignIn, type SignInProps } from "../console/account.tsx";
import { Copyable, CopyBlock, CsrfField } from "../console/shell.tsx";

/** GET /operator/login. */
export function OperatorLoginPage(props: SignInProps) {
  return (
    <AuthPage
      title="Operator sign-in"
      heading="Sign in to operate this node"
      problem={props.problem}
      notice={props.notice}
    >
      <PasswordSignIn action="/operator/login" {...props} />
      <p class="muted small">
        Operator accounts are made on the server:{" "}
        <code>deno task folio create-operator --email=you@example.com</code>.
      </p>
    </AuthPage>
  );
}

/** GET /operator/login/code: the second step. */
export function SecondFactorPage(
  props: { csrf: string; next: string; email: string; problem?: string | null },
) {
  return (
    <AuthPage title="Second step" heading="Enter your sign-in code" problem={props.problem}>
      <p>
        Signing in as{" "}
        <strong>{props.email}</strong>. Open your authenticator app and enter the six-digit code it
        shows for Folio.
      </p>
      <form method="post" action="/operator/login/code" class="card" aria-labelledby="code-title">
        <h2 id="code-title" class="sr-only">Code from your authenticator</h2>
        <CsrfField token={props.csrf} />
        <input type="hidden" name="next" value={props.next} />
        <CodeField />
        <p>
          <button type="submit">Sign in</button>
        </p>
      </form>
      <details class="card">
        <summary>Use a recovery code instead</summary>
        <form method="post" action="/operator/login/code" aria-label="Sign in with a recovery code">
          <CsrfField token={props.csrf} />
          <input type="hidden" name="next" value={props.next} />
          <label for="recoveryCode">Recovery code</label>
          <p class="hint" id="recovery-hint">One of the ten you saved; each works once.</p>
          <input
            id="recoveryCode"
            name="recoveryCode"
            type="text"
            autocomplete="off"
            aria-describedby="recovery-hint"
            required
          />
          <p>
            <button type="submit">Sign in with the recovery code</button>
          </p>
        </form>
      </details>
      <p>
        <a href="/operator/login">Start again</a>
      </p>
    </AuthPage>
  );
}

/** GET /operator/enrol: the first sign-in adds an authenticator. */
export function EnrolPage(
  props: {
    csrf: string;
    email: string;
    secret: string;
    uri: string;
    qrSvg: string;
    problem?: string | null;
  },
) {
  return (
    <AuthPage
      title="Set up your second factor"
      heading="Set up your authenticator"
      problem={props.problem}
      script="/operator/console.js"
    >
      <p>
        Operators sign in with a password and a code from an authenticator app (any app that reads
        TOTP codes: 1Password, Google Authenticator, Aegis, FreeOTP…). Add Folio to yours now.
      </p>
      <section class="card" aria-labelledby="scan-title">
        <h2 id="scan-title">1. Scan this code</h2>
        {/* The SVG is made by the qrcode library from the otpauth:// URI, never from input. */}
        <div
          class="qr"
          role="img"
          aria-label="QR code of your authenticator setup link"
          dangerouslySetInnerHTML={{ __html: props.qrSvg }}
        />
        <p>Or type this secret into the app (account: {props.email}):</p>
        <Copyable label="secret" value={props.secret} secret />
        <details>
          <summary>Setup link</summary>
          <Copyable label="setup link" value={props.uri} />
        </details>
      </section>
      <form method="post" action="/operator/enrol" class="card" aria-labelledby="confirm-title">
        <h2 id="confirm-title">2. Enter the code it shows</h2>
        <CsrfField token={props.csrf} />
        <CodeField />
        <p>
          <button type="submit">Confirm and continue</button>
        </p>
      </form>
    </AuthPage>
  );
}

/** GET /operator/recovery-codes: the codes just made, once; after that, the way to new ones. */
export function RecoveryCodesPage(
  props: { codes: string[] | null; csrf: string; left: number },
) {
  return (
    <AuthPage
      title="Recovery codes"
      heading="Your recovery codes"
      script="/operator/console.js"
    >
      {props.codes
        ? (
          <section class="card key-once" aria-labelledby="codes-title">
            <h2 id="codes-title">Save these ten codes now</h2>
            <p class="warning">
              <strong>They are shown only this once.</strong>{" "}
              If you lose your authenticator, each code signs you in once in place of a code from
              the app. Folio keeps only their hashes.
            </p>
            <ol class="codes">
              {props.codes.map((code) => (
                <li key={code}>
                  <code>{code}</code>
                </li>
              ))}
            </ol>
            <CopyBlock label="All ten recovery codes" value={props.codes.join("\n")} />
          </section>
        )
        : (
          <section class="card" aria-labelledby="gone-title">
            <h2 id="gone-title">Already shown</h2>
            <p>
              Recovery codes are shown once, right after they are made. You have {props.left}{" "}
              unused. If you did not save them, make new ones: the old ones stop working.
            </p>
            <form method="post" action="/operator/recovery-codes">
              <CsrfField token={props.csrf} />
              <button type="submit" class="secondary">Make new recovery codes</button>
            </form>
          </section>
        )}
      <p>
        <a class="button" href="/operator">Continue to the desk</a>
      </p>
    </AuthPage>
  );
}

/** The six-digit code of an authenticator app. */
function CodeField() {
  return (
    <>
      <label for="code">Six-digit code</label>
      <input
        id="code"
        name="code"
        type="text"
        inputMode="numeric"
        pattern="[0-9 ]{6,7}"
        autocomplete="one-time-code"
        required
      />
    </>
  );
}
