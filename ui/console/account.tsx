/** Signing up and in to the publisher console, and the one showing of a new publisher key. */
import { Page } from "../layout.tsx";
import { Copyable, CsrfField, Messages } from "./shell.tsx";
import { CONSOLE_CSS } from "./style.ts";

/** The values typed into the sign-up form, kept when the API refuses them. */
export interface SignupValues {
  name: string;
  email: string;
  slug: string;
}

/** GET /publisher/signup. */
export function SignupPage(props: { csrf: string; values: SignupValues; problem?: string | null }) {
  const v = props.values;
  return (
    <Page title="Create a publisher account · Folio" css={CONSOLE_CSS}>
      <main class="auth">
        <h1>Bring your catalog to Folio</h1>
        <p class="muted">
          AI companies and their agents read your articles under your license, through MCP, REST and
          A2A; every read is decided, logged and settled on one monthly statement.
        </p>
        <Messages problem={props.problem} />
        <form method="post" action="/publisher/signup" class="card">
          <CsrfField token={props.csrf} />
          <label for="name">Publication name</label>
          <input id="name" name="name" type="text" required maxLength={120} value={v.name} />
          <label for="slug">Short name</label>
          <p class="hint" id="slug-hint">
            Lower-case letters, digits and hyphens; it names your agent card and cannot change.
          </p>
          <input
            id="slug"
            name="slug"
            type="text"
            required
            minLength={2}
            maxLength={40}
            pattern="[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?"
            aria-describedby="slug-hint"
            value={v.slug}
          />
          <label for="email">Email</label>
          <input
            id="email"
            name="email"
            type="email"
            required
            autocomplete="email"
            value={v.email}
          />
          <label for="password">Password</label>
          <p class="hint" id="password-hint">At least 10 characters.</p>
          <input
            id="password"
            name="password"
            type="password"
            required
            minLength={10}
            autocomplete="new-password"
            aria-describedby="password-hint"
          />
          <p>
            <button type="submit">Create account</button>
          </p>
        </form>
        <p>
          Already have an account? <a href="/publisher/login">Sign in</a>
        </p>
      </main>
    </Page>
  );
}

/** GET /publisher/login. */
export function LoginPage(
  props: {
    csrf: string;
    email: string;
    next: string;
    problem?: string | null;
    notice?: string | null;
  },
) {
  return (
    <Page title="Sign in · Folio" css={CONSOLE_CSS}>
      <main class="auth">
        <h1>Sign in to your publisher console</h1>
        <Messages problem={props.problem} notice={props.notice} />
        <form method="post" action="/publisher/login" class="card">
          <CsrfField token={props.csrf} />
          <input type="hidden" name="next" value={props.next} />
          <label for="email">Email</label>
          <input
            id="email"
            name="email"
            type="email"
            required
            autocomplete="username"
            value={props.email}
          />
          <label for="password">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            required
            autocomplete="current-password"
          />
          <p>
            <button type="submit">Sign in</button>
          </p>
        </form>
        <p>
          New to Folio? <a href="/publisher/signup">Create a publisher account</a>
        </p>
      </main>
    </Page>
  );
}

/** The publisher key, shown once: after sign-up and after a rotation. */
export function KeyOnce(props: { apiKey: string; next: string; nextLabel: string }) {
  return (
    <section class="card" aria-labelledby="key-title">
      <h2 id="key-title">Your publisher key</h2>
      <p>
        <strong>Copy it now: it is shown only this once.</strong>{" "}
        Folio keeps only a hash of it, so it cannot show it again. Scripts use it as{" "}
        <code>Authorization: Bearer pk_…</code>{" "}
        on the management API; if it leaks, rotate it in Settings.
      </p>
      <Copyable label="publisher key" value={props.apiKey} secret />
      <p>
        <a class="button" href={props.next}>{props.nextLabel}</a>
      </p>
    </section>
  );
}

/** After sign-up: the key once, then on to the onboarding checklist. */
export function WelcomePage(props: { name: string; apiKey: string }) {
  return (
    <Page title="Welcome · Folio" css={CONSOLE_CSS}>
      <main class="auth">
        <h1>Welcome, {props.name}</h1>
        <KeyOnce apiKey={props.apiKey} next="/publisher" nextLabel="Continue to your console" />
      </main>
      <script src="/publisher/console.js" defer />
    </Page>
  );
}
