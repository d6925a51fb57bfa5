/** Signing up and in to the buyer portal, and the one showing of a new buyer key. */
import {
  AuthPage,
  EmailField,
  KeyOnce,
  NewPasswordField,
  PasswordSignIn,
  type SignInProps,
} from "../console/account.tsx";
import { CsrfField } from "../console/shell.tsx";

/** The values typed into the sign-up form, kept when the API refuses them. */
export interface BuyerSignupValues {
  name: string;
  email: string;
}

/** GET /buyer/signup. */
export function BuyerSignupPage(
  props: { csrf: string; values: BuyerSignupValues; problem?: string | null },
) {
  const v = props.values;
  return (
    <AuthPage
      title="Create a buyer account"
      heading="License content for your AI"
      problem={props.problem}
    >
      <p class="muted">
        One account and one API key for every publisher on Folio: read through MCP, REST and A2A,
        pay per use or by monthly license, and get one statement a month.
      </p>
      <form method="post" action="/buyer/signup" class="card">
        <CsrfField token={props.csrf} />
        <label for="name">Company or team name</label>
        <input
          id="name"
          name="name"
          type="text"
          required
          maxLength={120}
          autocomplete="organization"
          value={v.name}
        />
        <EmailField value={v.email} autocomplete="email" />
        <NewPasswordField label="Password" />
        <p>
          <button type="submit">Create account</button>
        </p>
      </form>
      <p>
        Already have an account? <a href="/buyer/login">Sign in</a>
      </p>
    </AuthPage>
  );
}

/** GET /buyer/login: by email and password, or by the API key. */
export function BuyerLoginPage(props: SignInProps) {
  return (
    <AuthPage
      title="Sign in"
      heading="Sign in to your buyer portal"
      problem={props.problem}
      notice={props.notice}
    >
      <PasswordSignIn action="/buyer/login" {...props}>
        <h2 id="sign-in-title">With your email</h2>
      </PasswordSignIn>
      <form method="post" action="/buyer/login/key" class="card" aria-labelledby="by-key">
        <h2 id="by-key">With your API key</h2>
        <p class="hint" id="key-hint">
          The <code>mk_…</code> key you were shown at sign-up or at the last rotation.
        </p>
        <CsrfField token={props.csrf} />
        <input type="hidden" name="next" value={props.next} />
        <label for="apiKey">API key</label>
        <input
          id="apiKey"
          name="apiKey"
          type="password"
          required
          autocomplete="off"
          spellcheck={false}
          aria-describedby="key-hint"
        />
        <p>
          <button type="submit">Sign in with the key</button>
        </p>
      </form>
      <p>
        New to Folio? <a href="/buyer/signup">Create a buyer account</a>
      </p>
    </AuthPage>
  );
}

/** What a new buyer key is for, under the key. */
export function BuyerKeyUse() {
  return (
    <p>
      Agents and scripts send it as <code>Authorization: Bearer mk_…</code>{" "}
      on MCP, the publishers' REST APIs and A2A, and on the marketplace API. If it leaks, rotate it
      under Keys &amp; clients: the old key stops working at once.
    </p>
  );
}

/** After sign-up: the key once, then on to the overview. */
export function BuyerWelcomePage(props: { name: string; apiKey: string; signedIn: boolean }) {
  return (
    <AuthPage title="Welcome" heading={`Welcome, ${props.name}`} script="/buyer/console.js">
      <KeyOnce
        title="Your API key"
        apiKey={props.apiKey}
        next={props.signedIn ? "/buyer" : "/buyer/login"}
        nextLabel={props.signedIn ? "I have copied it: continue" : "Sign in to continue"}
      >
        <BuyerKeyUse />
      </KeyOnce>
    </AuthPage>
  );
}
