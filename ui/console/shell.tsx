/**
 * The publisher console's frame: top bar (publisher, who is signed in, sign out), the section
 * navigation, the notice or problem of the last action, and small shared pieces (CSRF field,
 * copyable values, figures). Everything works without JavaScript; /publisher/console.js only adds
 * copy buttons and the branding preview.
 */
import type { ComponentChildren } from "preact";
import { Page } from "../layout.tsx";
import { CONSOLE_CSS } from "./style.ts";

/** The signed-in visitor, as GET /api/publisher/session answers. */
export interface Who {
  publisherId: string;
  slug: string;
  name: string;
  email: string | null;
  csrfToken: string;
}

/** The console's sections, in navigation order. */
export const SECTIONS = [
  ["overview", "/publisher", "Overview"],
  ["settings", "/publisher/settings", "Settings"],
  ["sources", "/publisher/sources", "Sources & jobs"],
  ["books", "/publisher/books", "Books"],
  ["articles", "/publisher/articles", "Articles"],
  ["rules", "/publisher/rules", "Rules"],
  ["calls", "/publisher/calls", "Calls"],
  ["intents", "/publisher/intents", "Reader intents"],
  ["earnings", "/publisher/earnings", "Earnings"],
  ["requests", "/publisher/requests", "License requests"],
  ["playground", "/publisher/playground", "Passages playground"],
] as const;

/** A section's id. */
export type Section = typeof SECTIONS[number][0];

/** What every signed-in page is given. */
export interface ShellProps {
  who: Who;
  section: Section;
  title: string;
  notice?: string | null;
  problem?: string | null;
  /** A job is running: the page refreshes itself (works without JavaScript). */
  refreshSeconds?: number;
  children: ComponentChildren;
}

/** A signed-in console page. */
export function ConsoleShell(props: ShellProps) {
  return (
    <Page title={`${props.title} · ${props.who.name} · Folio`} css={CONSOLE_CSS}>
      {props.refreshSeconds
        ? <meta http-equiv="refresh" content={String(props.refreshSeconds)} />
        : null}
      <header class="top">
        <a class="brand" href="/publisher">Folio · {props.who.name}</a>
        {props.who.email ? <span class="small">{props.who.email}</span> : null}
        <form method="post" action="/publisher/logout">
          <CsrfField token={props.who.csrfToken} />
          <button type="submit">Sign out</button>
        </form>
      </header>
      <div class="wrap">
        <nav class="side" aria-label="Console sections">
          <ul>
            {SECTIONS.map(([id, href, label]) => (
              <li key={id}>
                <a href={href} aria-current={id === props.section ? "page" : undefined}>{label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <main>
          <h1>{props.title}</h1>
          <Messages notice={props.notice} problem={props.problem} />
          {props.children}
        </main>
      </div>
      <script src="/publisher/console.js" defer />
    </Page>
  );
}

/** The result of the last action: a notice, or a problem announced to screen readers. */
export function Messages(props: { notice?: string | null; problem?: string | null }) {
  return (
    <>
      {props.notice ? <p class="notice" role="status">{props.notice}</p> : null}
      {props.problem ? <p class="problem" role="alert">{props.problem}</p> : null}
    </>
  );
}

/** The hidden CSRF field every console form carries. */
export function CsrfField(props: { token: string }) {
  return <input type="hidden" name="_csrf" value={props.token} />;
}

/** A value to copy (a URL, a key): selectable text, plus a copy button when JavaScript runs. */
export function Copyable(props: { label: string; value: string; secret?: boolean }) {
  return (
    <div class="copy">
      <code class={props.secret ? "secret" : undefined} data-copy={props.value}>{props.value}</code>
      <button type="button" class="secondary copy-button" data-copy-label={props.label} hidden>
        Copy
      </button>
    </div>
  );
}

/** One headline figure. */
export function Figure(props: { value: string; label: string }) {
  return (
    <div class="figure">
      <b>{props.value}</b>
      <span>{props.label}</span>
    </div>
  );
}

/** Whole US cents as dollars, e.g. 1234 → "$12.34". */
export function usd(cents: number): string {
  return `$${
    (cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })
  }`;
}

/** Possibly fractional cents as a per-read price, e.g. 0.5 → "$0.005". */
export function perRead(cents: number): string {
  const dollars = cents / 100;
  return `$${
    dollars.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 6 })
  }`;
}

/** A count with thousands separators. */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** An ISO time as "2026-11-15 12:00 UTC" (the console speaks UTC, like statements). */
export function when(iso: string | null | undefined): string {
  if (!iso) return "—";
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
