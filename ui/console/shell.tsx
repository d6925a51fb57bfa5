/**
 * The frame of Folio's two portals, the publisher console (/publisher) and the buyer portal
 * (/buyer): top bar (the account, who is signed in, sign out), the section navigation, the notice
 * or problem of the last action, and small shared pieces (CSRF field, copyable values, figures).
 * Everything works without JavaScript; each portal's console.js only adds copy buttons and small
 * live previews.
 */
import type { ComponentChildren } from "preact";
import { Page } from "../layout.tsx";
import { CONSOLE_CSS } from "./style.ts";
import {
  billingDayInWords,
  dayInWords,
  readerZone,
  timeInWords,
  timesWritten,
  zoneInWords,
} from "../../server/platform/local_time.ts";

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
  ["traffic", "/publisher/traffic", "Traffic"],
  ["settings", "/publisher/settings", "Settings"],
  ["sources", "/publisher/sources", "Sources & jobs"],
  ["books", "/publisher/books", "Books"],
  ["articles", "/publisher/articles", "Articles"],
  ["rules", "/publisher/rules", "Rules"],
  ["gate", "/publisher/gate", "Crawler gate"],
  ["calls", "/publisher/calls", "Calls"],
  ["intents", "/publisher/intents", "Reader intents"],
  ["earnings", "/publisher/earnings", "Earnings"],
  ["payouts", "/publisher/payouts", "Payouts"],
  ["disputes", "/publisher/disputes", "Disputes"],
  ["requests", "/publisher/requests", "License requests"],
  ["playground", "/publisher/playground", "Passages playground"],
  ["webhooks", "/publisher/webhooks", "Webhooks"],
  ["account", "/publisher/account", "Account"],
] as const;

/** A section's id. */
export type Section = typeof SECTIONS[number][0];

/** What tells one portal from the other in its frame. */
export interface PortalFrame {
  /** Where the portal is mounted ("/publisher", "/buyer"); its script and sign-out live under it. */
  home: string;
  /** The navigation's accessible name. */
  navLabel: string;
  /** Its sections, in navigation order: id, link, label. */
  sections: readonly (readonly [string, string, string])[];
}

/** The publisher console's frame. */
export const CONSOLE_FRAME: PortalFrame = {
  home: "/publisher",
  navLabel: "Console sections",
  sections: SECTIONS,
};

/** Who is signed in, as either portal's session API answers. */
export interface SignedIn {
  name: string;
  email: string | null;
  csrfToken: string;
}

/** What every signed-in page of either portal is given. */
export interface PortalShellProps {
  frame: PortalFrame;
  who: SignedIn;
  section: string;
  title: string;
  notice?: string | null;
  problem?: string | null;
  /** Something is running: the page refreshes itself (works without JavaScript). */
  refreshSeconds?: number;
  children: ComponentChildren;
}

/** A signed-in page of either portal. */
export function PortalShell(props: PortalShellProps) {
  const { frame } = props;
  return (
    <Page title={`${props.title} · ${props.who.name} · Folio`} css={CONSOLE_CSS} landmarks="own">
      {props.refreshSeconds
        ? <meta http-equiv="refresh" content={String(props.refreshSeconds)} />
        : null}
      <header class="top">
        <a class="brand" href={frame.home}>Folio · {props.who.name}</a>
        {props.who.email ? <span class="small">{props.who.email}</span> : null}
        <form method="post" action={`${frame.home}/logout`}>
          <CsrfField token={props.who.csrfToken} />
          <button type="submit">Sign out</button>
        </form>
      </header>
      <div class="wrap">
        <nav class="side" aria-label={frame.navLabel}>
          <ul>
            {frame.sections.map(([id, href, label]) => (
              <li key={id}>
                <a href={href} aria-current={id === props.section ? "page" : undefined}>{label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          <h1>{props.title}</h1>
          <Messages notice={props.notice} problem={props.problem} />
          {props.children}
          <ZoneNote />
        </main>
      </div>
      <script src={`${frame.home}/console.js`} defer />
    </Page>
  );
}

/** What every signed-in console page is given. */
export interface ShellProps extends Omit<PortalShellProps, "frame" | "who" | "section"> {
  who: Who;
  section: Section;
}

/** A signed-in console page. */
export function ConsoleShell(props: ShellProps) {
  return <PortalShell frame={CONSOLE_FRAME} {...props} />;
}

/**
 * Which zone the page's times are in, and that billing months are UTC's (docs/decisions/pages.md
 * "Local dates"); the script rewrites it with the times when the browser's zone differs.
 */
function ZoneNote() {
  if (!timesWritten()) return null;
  const zone = readerZone();
  return (
    <p class="small muted zone-note" data-zone={zone}>
      Times are in{" "}
      <span data-zone-name>{zoneInWords(zone)}</span>. Billing months run from midnight UTC on the
      1st.
    </p>
  );
}

/** A refusal in the page's words, linking the page that fixes it: `text`, the link, then `after`. */
export interface LinkedWords {
  text: string;
  link: string;
  href: string;
  after: string;
}

/** A refusal's words: the page's own, linked, when it has them; else the API's sentence. */
export function ProblemWords(props: { problem: string | null; linked?: LinkedWords | null }) {
  const l = props.linked;
  if (!l) return <>{props.problem}</>;
  return (
    <>
      {l.text}
      <a href={l.href}>{l.link}</a>
      {l.after}
    </>
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

/** A block to copy (a config file, a command): preformatted, plus a copy button with JavaScript. */
export function CopyBlock(props: { label: string; value: string }) {
  return (
    <div class="copy block">
      <pre
        tabIndex={0}
        aria-label={props.label}
      ><code data-copy={props.value}>{props.value}</code></pre>
      <button type="button" class="secondary copy-button" data-copy-label={props.label} hidden>
        Copy
      </button>
    </div>
  );
}

/** The switcher of a page's time window (`?days=`), as tabs. */
export function WindowTabs(props: { base: string; days: number; windows: readonly number[] }) {
  return (
    <nav aria-label="Window">
      <ul class="tabs">
        {props.windows.map((d) => (
          <li key={d}>
            <a
              href={`${props.base}?days=${d}`}
              aria-current={d === props.days ? "page" : undefined}
            >
              {d} days
            </a>
          </li>
        ))}
      </ul>
    </nav>
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

/** A count with thousands separators. */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}

/**
 * A moment as words in the reader's zone, "15 Dec 2026, 21:39" (server/platform/local_time.ts), for
 * sentences; as an element of its own, prefer `<When>`, which the script can rewrite in place.
 */
export function when(iso: string | null | undefined): string {
  return timeInWords(iso);
}

/**
 * A moment as a `<time>` element: machine-readable `datetime`, words in the reader's zone (`day`:
 * the day only). `billing`: a billing date (a renewal, the end of a paid period, an invoice's due
 * day), which is a UTC calendar day like the months it bounds, so it is written as that day in
 * every zone ("1 Dec 2026") and the script leaves it alone.
 */
export function When(props: { iso: string | null | undefined; day?: boolean; billing?: boolean }) {
  if (!props.iso) return <>—</>;
  if (props.billing) {
    return <time datetime={props.iso}>{billingDayInWords(props.iso)}</time>;
  }
  return (
    <time datetime={props.iso} data-when={props.day ? "day" : "time"}>
      {props.day ? dayInWords(props.iso) : timeInWords(props.iso)}
    </time>
  );
}

/** A billing date in a sentence: its UTC calendar day, "1 Dec 2026" (see `When`'s `billing`). */
export function billingDay(iso: string | null | undefined): string {
  return billingDayInWords(iso);
}
