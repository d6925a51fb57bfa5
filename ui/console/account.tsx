/** Signing up and in to the publisher console, and the one showing of a new publisher key. */
import { FieldError, type FieldProblem, invalidIf } from "../field_error.tsx";
import type { ComponentChildren } from "preact";
import { Page } from "../layout.tsx";
import { Copyable, CsrfField, Messages } from "./shell.tsx";
import { CONSOLE_CSS } from "./style.ts";

/** The frame of the pages used before there is a session, in either portal. */
export function AuthPage(
  props: {
    title: string;
    heading: string;
    problem?: string | null;
    notice?: string | null;
    /** The portal's script (copy buttons), for pages that show a key. */
    script?: string;
    children: ComponentChildren;
  },
) {
  return (
    <Page title={`${props.title} · Folio`} css={CONSOLE_CSS} landmarks="own">
      <main class="auth" id="main">
        <h1>{props.heading}</h1>
        <Messages problem={props.problem} notice={props.notice} />
        {props.children}
      </main>
      {props.script ? <script src={props.script} defer /> : null}
    </Page>
  );
}

/** What a sign-in page is given. */
export interface SignInProps {
  csrf: string;
  email: string;
  next: string;
  problem?: string | null;
  notice?: string | null;
}

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
    <AuthPage
      title="Create a publisher account"
      heading="Bring your catalog to Folio"
      problem={props.problem}
    >
      <p class="muted">
        AI companies and their agents read your articles under your license, through MCP, REST and
        A2A; every read is decided, logged and settled on one monthly statement.
      </p>
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
        <EmailField value={v.email} autocomplete="email" />
        <NewPasswordField label="Password" />
        <p>
          <button type="submit">Create account</button>
        </p>
      </form>
      <p>
        Already have an account? <a href="/publisher/login">Sign in</a>
      </p>
    </AuthPage>
  );
}

/** GET /publisher/login. */
export function LoginPage(props: SignInProps) {
  return (
    <AuthPage
      title="Sign in"
      heading="Sign in to your publisher console"
      problem={props.problem}
      notice={props.notice}
    >
      <PasswordSignIn action="/publisher/login" {...props} />
      <p>
        New to Folio? <a href="/publisher/signup">Create a publisher account</a>
      </p>
    </AuthPage>
  );
}

/** The email field of a sign-up (`email`) or sign-in (`username`) form. */
export function EmailField(props: { value: string; autocomplete: "email" | "username" }) {
  return (
    <>
      <label for="email">Email</label>
      <input
        id="email"
        name="email"
        type="email"
        required
        autocomplete={props.autocomplete}
        value={props.value}
      />
    </>
  );
}

/** A new password (server/domain/accounts/passwords.ts: 10 to 200 characters), with its hint. */
export function NewPasswordField(props: { label: string; problem?: FieldProblem | null }) {
  return (
    <>
      <label for="password">{props.label}</label>
      <p class="hint" id="password-hint">At least 10 characters.</p>
      <input
        {...invalidIf(props.problem, "password", "password-hint")}
        id="password"
        name="password"
        type="password"
        required
        minLength={10}
        maxLength={200}
        autocomplete="new-password"
      />
      <FieldError problem={props.problem} name="password" />
    </>
  );
}

/** The sign-in form by email and password (either portal); `children` go above the fields. */
export function PasswordSignIn(
  props: {
    action: string;
    csrf: string;
    next: string;
    email: string;
    children?: ComponentChildren;
  },
) {
  return (
    <form method="post" action={props.action} class="card" aria-labelledby="sign-in-title">
      {props.children ?? <h2 id="sign-in-title" class="sr-only">Sign in</h2>}
      <CsrfField token={props.csrf} />
      <input type="hidden" name="next" value={props.next} />
      <EmailField value={props.email} autocomplete="username" />
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
      <p>
        <a href={props.action.replace(/\/login$/, "/forgot")}>Forgot password?</a>
      </p>
    </form>
  );
}

/**
 * A new key, shown once (after sign-up and after a rotation, in either portal): the warning, the
 * key with a copy button, what it is for (`children`), and the way on.
 */
export function KeyOnce(
  props: {
    apiKey: string;
    next: string;
    nextLabel: string;
    title?: string;
    children?: ComponentChildren;
  },
) {
  return (
    <section class="card key-once" aria-labelledby="key-once-title">
      <h2 id="key-once-title">{props.title ?? "Your publisher key"}</h2>
      <p class="warning">
        <strong>Copy it now: it is shown only this once.</strong>{" "}
        Folio keeps only a hash of it, so it cannot show it again.
      </p>
      <Copyable label={props.title ?? "publisher key"} value={props.apiKey} secret />
      {props.children ?? (
        <p>
          Scripts use it as <code>Authorization: Bearer pk_…</code>{" "}
          on the management API; if it leaks, rotate it in Settings.
        </p>
      )}
      <p>
        <a class="button" href={props.next}>{props.nextLabel}</a>
      </p>
    </section>
  );
}

/** After sign-up: the key once, then on to the onboarding checklist. */
export function WelcomePage(props: { name: string; apiKey: string }) {
  return (
    <AuthPage title="Welcome" heading={`Welcome, ${props.name}`} script="/publisher/console.js">
      <KeyOnce apiKey={props.apiKey} next="/publisher" nextLabel="Continue to your console" />
    </AuthPage>
  );
}
