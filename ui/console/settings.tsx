/**
 * Settings: one form per part (profile and branding, domain, toggles, rights and prices, paywall
 * meter and robots, sponsor tools, enterprise terms, key), each a PATCH of that part only, so a
 * problem in one never loses what was typed in another.
 */
import { capitalized, useInWords } from "../../server/platform/words.ts";
import type { ComponentChildren } from "preact";
import type { z } from "zod";
import type {
  crawlersSchema,
  settingsResponseSchema,
} from "../../server/surfaces/manage/schemas.ts";
import { ConsoleShell, CsrfField, type Who } from "./shell.tsx";
import { formatRate, usdField } from "../../server/platform/money.ts";
import { KeyOnce } from "./account.tsx";
import { Scroll } from "./scroll.tsx";
import { DomainProof } from "./domain.tsx";
import { FieldError, type FieldProblem, invalidIf } from "../field_error.tsx";

/** GET /api/publisher/settings, as the page reads it. */
export type SettingsView = z.output<typeof settingsResponseSchema>;

/** What a publisher may do with a crawler on its pages. */
export type CrawlerAction = "allow" | "charge" | "block";

/** One entry of GET /api/publisher/crawlers. */
export type CrawlerView = z.output<typeof crawlersSchema>["crawlers"][number];

type ToggleName =
  | "publicRest"
  | "a2a"
  | "mcpApps"
  | "requireAuth"
  | "consentScreen"
  | "subscriptionLinking";

/** Each toggle in one sentence: what switching it on does, and what it does not. */
export const TOGGLES: [ToggleName, string, string][] = [
  [
    "publicRest",
    "Public REST API",
    "Anyone can call the REST API on your custom domain without a key. Off, only buyers with a Folio key can call it (and pay as they do everywhere); MCP and A2A are not affected.",
  ],
  ["a2a", "A2A server", "Agents that speak Agent2Agent find your agent card and send you tasks."],
  [
    "mcpApps",
    "MCP Apps",
    "get_article results carry a reader view that MCP clients able to show apps display.",
  ],
  [
    "requireAuth",
    "Require auth for MCP installs",
    "Each MCP install must get its own OAuth client before any tool answers. This does not lock REST; Public REST does.",
  ],
  [
    "consentScreen",
    "Consent screen",
    "People connecting an AI app through OAuth see your branded page and give their email and accept your terms.",
  ],
  [
    "subscriptionLinking",
    "Subscription linking",
    "The consent screen offers your subscribers a button to link their subscription.",
  ],
];

const RIGHTS: [keyof SettingsView["rights"], string][] = [
  ["summarization", "Summaries"],
  ["display", "Display of the full text"],
  ["rag", "Retrieval (RAG passages and search)"],
  ["fine_tuning", "Fine-tuning (by request only)"],
];

/** What the settings page shows. */
export interface SettingsProps {
  who: Who;
  settings: SettingsView;
  /** The crawlers of the list, with the publisher's action for each (GET /api/publisher/crawlers). */
  crawlers: CrawlerView[];
  /** Sponsor tools a publisher may switch on: id and title. */
  sponsorTools: { id: string; title: string; description: string }[];
  /** The part whose form the problem belongs to, and the values typed into it. */
  failed?: {
    part: string;
    problem: string;
    values: Record<string, string | string[]>;
    /** The problem's field, when the API named one of the form's (shown beside it). */
    field?: FieldProblem | null;
  } | null;
  notice?: string | null;
  /** A key rotated just now, shown once. */
  newKey?: string | null;
  /** The platform's host name (or address) from its base URL, and the port Folio listens on. */
  platformHost: string;
  platformPort: number;
}

/** An IPv4 or IPv6 literal (as URL.hostname gives it, IPv6 in brackets). */
function isAddress(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith("[");
}

/** GET /publisher/settings. */
export function SettingsPage(props: SettingsProps) {
  const s = props.settings;
  const typed = (part: string, name: string, fallback: string): string => {
    if (props.failed?.part !== part) return fallback;
    const v = props.failed.values[name];
    return (Array.isArray(v) ? v[0] : v) ?? "";
  };
  const fp = props.failed?.field ?? null;
  const inv = (name: string, hint?: string) => invalidIf(fp, name, hint);
  const err = (name: string) => <FieldError problem={fp} name={name} />;
  // A problem the API tied to a field is shown beside it; any other above its part's form.
  const problem = (part: string) =>
    props.failed?.part === part && !fp
      ? <p class="problem" role="alert">{props.failed.problem}</p>
      : null;
  const Part = (
    p: {
      id: string;
      title: string;
      children: ComponentChildren;
      hint?: string;
      after?: ComponentChildren;
    },
  ) => (
    <section class="card" id={p.id} aria-labelledby={`${p.id}-title`}>
      <h2 id={`${p.id}-title`}>{p.title}</h2>
      {p.hint ? <p class="muted small">{p.hint}</p> : null}
      {problem(p.id)}
      <form method="post" action={`/publisher/settings/${p.id}`}>
        <CsrfField token={props.who.csrfToken} />
        {p.children}
        <p>
          <button type="submit">Save {p.title.toLowerCase()}</button>
        </p>
      </form>
      {p.after}
    </section>
  );
  const color = typed("profile", "branding.primaryColor", s.branding.primaryColor ?? "");
  const font = typed("profile", "branding.font", s.branding.font ?? "");
  const logo = typed("profile", "branding.logoUrl", s.branding.logoUrl ?? "");
  const previewStyle = `--accent:${/^#[0-9a-fA-F]{3,6}$/.test(color) ? color : "#1d4ed8"};${
    font && /^[A-Za-z0-9 ,'"-]+$/.test(font) ? `font-family:${font}` : ""
  }`;
  return (
    <ConsoleShell
      who={props.who}
      section="settings"
      title="Settings"
      notice={props.notice}
      problem={props.failed ? "Not saved: see the form below." : null}
    >
      {props.newKey
        ? <KeyOnce apiKey={props.newKey} next="/publisher/settings" nextLabel="Done" />
        : null}
      <Part
        id="profile"
        title="Profile and branding"
        hint="Shown on your terms and consent pages, the catalog and your agent card."
      >
        <label for="name">Name</label>
        <input
          {...inv("name")}
          id="name"
          name="name"
          type="text"
          required
          maxLength={120}
          value={typed("profile", "name", s.name)}
        />
        {err("name")}
        <label for="description">Description</label>
        <textarea {...inv("description")} id="description" name="description" maxLength={2000}>
          {typed("profile", "description", s.description)}
        </textarea>
        {err("description")}
        <label for="logo">Logo URL</label>
        <p class="hint" id="logo-hint">An https:// address of an image; leave empty for none.</p>
        <input
          {...inv("branding.logoUrl", "logo-hint")}
          id="logo"
          name="branding.logoUrl"
          type="url"
          value={logo}
        />
        {err("branding.logoUrl")}
        <label for="color">Primary colour</label>
        <p class="hint" id="color-hint">A hex colour such as #0f766e.</p>
        <input
          {...inv("branding.primaryColor", "color-hint")}
          id="color"
          name="branding.primaryColor"
          type="text"
          value={color}
        />
        {err("branding.primaryColor")}
        <label for="font">Font</label>
        <p class="hint" id="font-hint">A CSS font list such as Georgia, serif.</p>
        <input
          {...inv("branding.font", "font-hint")}
          id="font"
          name="branding.font"
          type="text"
          value={font}
        />
        {err("branding.font")}
        <div
          id="branding-preview"
          class="preview"
          style={previewStyle}
          aria-label="Branding preview"
        >
          <img
            src={logo.startsWith("https://") ? logo : undefined}
            alt=""
            hidden={!logo.startsWith("https://")}
            style="max-height:48px"
          />
          <p style="margin:.3rem 0;font-size:1.3rem;font-weight:700" data-preview="name">
            {s.name}
          </p>
          <p>
            <span class="button" style="background:var(--accent);border-color:var(--accent)">
              Approve
            </span>{" "}
            <span style="color:var(--accent)">Your license terms</span>
          </p>
        </div>
      </Part>
      <Part
        id="domain"
        title="Custom domain"
        hint="REST and A2A answer on your own host name once you prove it is yours; agents cite your URLs."
        after={<DomainProof domain={s.domain} csrfToken={props.who.csrfToken} />}
      >
        <label for="customDomain">Host name</label>
        <p class="hint" id="domain-hint">Such as news.example.com; leave empty to remove it.</p>
        <input
          {...inv("customDomain", "domain-hint")}
          id="customDomain"
          name="customDomain"
          type="text"
          value={typed("domain", "customDomain", s.customDomain ?? "")}
        />
        {err("customDomain")}
        <details>
          <summary>How to point your domain at Folio</summary>
          <ol>
            <li>
              {isAddress(props.platformHost)
                ? (
                  <>
                    Create a DNS record for your host: an <code>A</code> record (<code>AAAA</code>
                    {" "}
                    for an IPv6 address) to{" "}
                    <code>{props.platformHost.replace(/^\[|\]$/g, "")}</code>. A <code>CNAME</code>
                    {" "}
                    must name a host, never an address.
                  </>
                )
                : (
                  <>
                    Create a DNS record for your host: a <code>CNAME</code> to{" "}
                    <code>{props.platformHost}</code> (or <code>A</code>/<code>AAAA</code>{" "}
                    records to the server's addresses when you host Folio yourself).
                  </>
                )}
            </li>
            <li>
              Self-hosting behind a proxy (Caddy, nginx): serve TLS for the host and pass requests
              to Folio unchanged, keeping the <code>Host</code> header, e.g. Caddy:{" "}
              <code>{`news.example.com { reverse_proxy 127.0.0.1:${props.platformPort} }`}</code>
            </li>
            <li>
              Check: <code>https://your-host/api/v1/articles/search?q=test</code>{" "}
              answers JSON once Public REST is on.
            </li>
          </ol>
        </details>
      </Part>
      <Part id="toggles" title="Surfaces and access">
        {TOGGLES.map(([name, label, hint]) => (
          <label class="check" key={name}>
            <input type="checkbox" name={`toggles.${name}`} value="on" checked={s.toggles[name]} />
            <span>
              <strong>{label}</strong>
              <span class="hint" style="display:block">{hint}</span>
            </span>
          </label>
        ))}
      </Part>
      <Part
        id="license"
        title="Rights and prices"
        hint="What every licensed agent may do by default, and what a metered read costs. Rules and per-article prices can override prices."
      >
        <fieldset aria-describedby="rights-hint">
          <legend>Rights granted by default</legend>
          <p class="hint" id="rights-hint">
            Unticking a use stops selling it: buyers who subscribed to it keep it until the end of
            the month they paid for, when their subscription ends. Enterprise licenses and approved
            requests keep their uses for their term.
          </p>
          {RIGHTS.map(([name, label]) => (
            <label class="check" key={name}>
              <input type="checkbox" name={`rights.${name}`} value="on" checked={s.rights[name]} />
              <span>{label}</span>
            </label>
          ))}
        </fieldset>
        {(["display", "summarization", "rag"] as const).map((use) => (
          <div key={use}>
            <label for={`price-${use}`}>
              Price of one read for {useInWords(use)} (USD)
            </label>
            <p class="hint" id={`price-${use}-hint`}>Now {formatRate(s.pricingUsdCents[use])}.</p>
            <input
              {...inv(`pricingUsd.${use}`, `price-${use}-hint`)}
              id={`price-${use}`}
              name={`pricingUsd.${use}`}
              type="number"
              min="0"
              step="any"
              value={typed("license", `pricingUsd.${use}`, usdField(s.pricingUsdCents[use]))}
            />
            {err(`pricingUsd.${use}`)}
          </div>
        ))}
      </Part>
      <Part
        id="access"
        title="Paywall meter and robots"
        hint="Readers without a license get this many PAYWALL articles a month before the upsell."
      >
        <label for="meter">Free PAYWALL reads per reader per month</label>
        <input
          {...inv("paywallMeterLimit")}
          id="meter"
          name="paywallMeterLimit"
          type="number"
          min="0"
          max="1000"
          step="1"
          value={typed("access", "paywallMeterLimit", String(s.paywallMeterLimit))}
        />
        {err("paywallMeterLimit")}
        <label for="robots">robots.txt origin</label>
        <p class="hint" id="robots-hint">
          Folio obeys this site's robots.txt when it fetches your pages, such as
          https://news.example.com.
        </p>
        <input
          {...inv("robotsOrigin", "robots-hint")}
          id="robots"
          name="robotsOrigin"
          type="url"
          value={typed("access", "robotsOrigin", s.robotsOrigin ?? "")}
        />
        {err("robotsOrigin")}
        <label for="origin-url">Your site's origin (reverse-proxy mode)</label>
        <p class="hint" id="origin-hint">
          With your domain pointed at Folio, Folio gates AI crawlers and passes every other request
          to this server, such as http://203.0.113.5:8080. Leave empty to serve Folio's own pages.
          {" "}
          <a href="/publisher/gate">Crawler gate</a> has configuration for your own proxy instead.
        </p>
        <input
          {...inv("originUrl", "origin-hint")}
          id="origin-url"
          name="originUrl"
          type="url"
          value={typed("access", "originUrl", s.originUrl ?? "")}
        />
        {err("originUrl")}
      </Part>
      <AgentPayments
        who={props.who}
        settings={s}
        crawlers={props.crawlers}
        failed={props.failed?.part === "agent-payments" ? props.failed : null}
      />
      <Part id="sponsor" title="Sponsor tools" hint="Extra MCP tools you offer agents for free.">
        {props.sponsorTools.map((t) => (
          <label class="check" key={t.id}>
            <input
              type="checkbox"
              name="sponsorTools"
              value={t.id}
              checked={s.sponsorTools.includes(t.id)}
            />
            <span>
              <strong>{t.title}</strong> <code>{t.id}</code>
              <span class="hint" style="display:block">{t.description}</span>
            </span>
          </label>
        ))}
        <input type="hidden" name="sponsorTools" value="" />
      </Part>
      <Enterprise
        who={props.who}
        settings={s}
        problem={problem("enterprise")}
        typed={props.failed?.part === "enterprise" ? props.failed.values : null}
        field={fp}
      />
      <section class="card" id="key" aria-labelledby="key-title">
        <h2 id="key-title">Publisher key</h2>
        <p class="muted small">
          Scripts use it on the management API. Rotating it stops the old key at once and signs out
          your other sessions.
        </p>
        {problem("key")}
        <p>
          <a class="button danger" href="/publisher/settings/key">Rotate the key…</a>
        </p>
      </section>
    </ConsoleShell>
  );
}

function Enterprise(
  props: {
    who: Who;
    settings: SettingsView;
    problem: preact.JSX.Element | null;
    /** What was typed into this form when the API refused it. */
    typed: Record<string, string | string[]> | null;
    field: FieldProblem | null;
  },
) {
  const terms = props.settings.enterpriseTerms;
  const inv = (name: string, hint?: string) => invalidIf(props.field, name, hint);
  const err = (name: string) => <FieldError problem={props.field} name={name} />;
  const typed = props.typed;
  const typedOne = (name: string) => [typed?.[name] ?? ""].flat()[0] ?? "";
  const uses = typed ? [typed["enterprise.useCases"] ?? []].flat() : terms?.useCases ?? [];
  return (
    <section class="card" id="enterprise" aria-labelledby="enterprise-title">
      <h2 id="enterprise-title">Enterprise license</h2>
      <p class="muted small">
        Terms offered when an AI company's agent asks for a license; you approve each request under
        {" "}
        <a href="/publisher/requests">License requests</a>.{" "}
        <span class="dev">
          (Developers: agents ask with the MCP tool <code>request_license</code>.)
        </span>
      </p>
      {props.problem}
      <form method="post" action="/publisher/settings/enterprise">
        <CsrfField token={props.who.csrfToken} />
        <fieldset {...inv("enterprise.useCases")}>
          <legend>Uses covered</legend>
          {err("enterprise.useCases")}
          {(["summarization", "display", "rag", "fine_tuning"] as const).map((use) => (
            <label class="check" key={use}>
              <input
                type="checkbox"
                name="enterprise.useCases"
                value={use}
                checked={uses.includes(use)}
              />
              <span>{capitalized(useInWords(use))}</span>
            </label>
          ))}
        </fieldset>
        <label for="ent-price">Monthly price (USD)</label>
        <input
          {...inv("enterprise.monthlyPriceUsd")}
          id="ent-price"
          name="enterprise.monthlyPriceUsd"
          type="number"
          min="0"
          step="0.01"
          value={typed
            ? typedOne("enterprise.monthlyPriceUsd")
            : terms
            ? usdField(terms.monthlyPriceUsdCents)
            : ""}
        />
        {err("enterprise.monthlyPriceUsd")}
        <label for="ent-conditions">Conditions</label>
        <textarea
          {...inv("enterprise.conditions")}
          id="ent-conditions"
          name="enterprise.conditions"
          maxLength={4000}
        >
          {typed ? typedOne("enterprise.conditions") : terms?.conditions ?? ""}
        </textarea>
        {err("enterprise.conditions")}
        <p class="row">
          <button type="submit" name="enterprise.action" value="save">Save enterprise terms</button>
          {terms
            ? (
              <button type="submit" class="secondary" name="enterprise.action" value="remove">
                Stop offering
              </button>
            )
            : null}
        </p>
      </form>
    </section>
  );
}

const ACTION_WORDS: Record<"reader" | CrawlerAction, string> = {
  reader: "treat as a reader",
  allow: "allow",
  charge: "charge",
  block: "block",
};

const CLASSES: [CrawlerView["class"], string, string][] = [
  ["training", "Training crawlers", "Collect pages to train AI models."],
  ["search", "AI search crawlers", "Index pages for AI search and answers."],
  [
    "user",
    "User-initiated fetchers",
    "Fetch a page when a person asks an AI assistant about it.",
  ],
];

/**
 * Agent payments: pay-per-crawl on the publisher's own host. One form, a PATCH of
 * `agentPayments` alone; per-crawler selects send only the crawlers not left at their default.
 */
function AgentPayments(props: {
  who: Who;
  settings: SettingsView;
  crawlers: CrawlerView[];
  failed: {
    problem: string;
    values: Record<string, string | string[]>;
    field?: FieldProblem | null;
  } | null;
}) {
  const ap = props.settings.agentPayments;
  const failed = props.failed;
  const fp = failed?.field ?? null;
  const inv = (name: string, hint?: string) => invalidIf(fp, name, hint);
  const err = (name: string) => <FieldError problem={fp} name={name} />;
  const typed = (name: string, fallback: string): string => {
    if (!failed) return fallback;
    const v = failed.values[name];
    return (Array.isArray(v) ? v[0] : v) ?? "";
  };
  const enabled = failed ? typed("agentPayments.enabled", "") !== "" : ap.enabled;
  const defaultAction = typed("agentPayments.defaultAction", ap.defaultAction);
  const userFetchers = typed("agentPayments.userFetchers", ap.userFetchers);
  const price = typed(
    "agentPayments.crawlerPriceUsd",
    ap.crawlerPriceUsdCents === null ? "" : usdField(ap.crawlerPriceUsdCents),
  );
  const host = props.settings.urls.host;
  const displayPrice = props.settings.pricingUsdCents.display;
  return (
    <section class="card" id="agent-payments" aria-labelledby="agent-payments-title">
      <h2 id="agent-payments-title">Agent payments</h2>
      <p class="muted small">
        Pay-per-crawl on your own host: AI crawlers that read your pages there are asked to pay per
        page (HTTP 402 with a price) and pay with a buyer key or a signed request.
      </p>
      {host
        ? (
          <p class="small">
            Crawlers read your terms at <a href={`${host}/robots.txt`}>{`${host}/robots.txt`}</a>
            {" "}
            and <a href={`${host}/license.xml`}>{`${host}/license.xml`}</a>.
          </p>
        )
        : (
          <p class="warning small">
            Agent payments apply to your pages on your own host: set a custom domain above to serve
            them (with their robots.txt and license.xml).
          </p>
        )}
      {failed && !fp ? <p class="problem" role="alert">{failed.problem}</p> : null}
      <form method="post" action="/publisher/settings/agent-payments">
        <CsrfField token={props.who.csrfToken} />
        <label class="check">
          <input type="checkbox" name="agentPayments.enabled" value="on" checked={enabled} />
          <span>
            <strong>Charge AI crawlers on my pages</strong>
            <span class="hint" style="display:block">
              Off, every crawler you do not block is served like a person: free pages in full,
              PAYWALL pages as a teaser.
            </span>
          </span>
        </label>
        <label for="crawler-price">Price per page for crawlers (USD)</label>
        <p class="hint" id="crawler-price-hint">
          What a charged crawler pays per page, before the 4.7% platform fee. Leave empty to use
          your full-display price (now {formatRate(displayPrice)}).
        </p>
        <input
          {...inv("agentPayments.crawlerPriceUsd", "crawler-price-hint")}
          id="crawler-price"
          name="agentPayments.crawlerPriceUsd"
          type="number"
          min="0"
          step="any"
          value={price}
        />
        {err("agentPayments.crawlerPriceUsd")}
        <label for="default-action">Training and search crawlers</label>
        <p class="hint" id="default-action-hint">
          Allow: served free. Charge: they pay on every page, free ones included. Block: refused
          with 403. A crawler your origin's robots.txt disallows pays as if charged, and PAYWALL
          pages always cost a crawler the price plus the 4.7% fee.
        </p>
        <select
          id="default-action"
          name="agentPayments.defaultAction"
          aria-describedby="default-action-hint"
        >
          {(["allow", "charge", "block"] as const).map((a) => (
            <option key={a} value={a} selected={defaultAction === a}>
              {capital(ACTION_WORDS[a])}
            </option>
          ))}
        </select>
        <label for="user-fetchers">User-initiated fetchers</label>
        <p class="hint" id="user-fetchers-hint">
          Assistants fetching a page a person asked about (ChatGPT-User, Claude-User). Treat as a
          reader: served like a person and never charged.
        </p>
        <select
          id="user-fetchers"
          name="agentPayments.userFetchers"
          aria-describedby="user-fetchers-hint"
        >
          {(["reader", "allow", "charge", "block"] as const).map((a) => (
            <option key={a} value={a} selected={userFetchers === a}>
              {capital(ACTION_WORDS[a])}
            </option>
          ))}
        </select>
        <h3>Each crawler</h3>
        <p class="hint">
          Leave a crawler at its default, or choose for it alone; only your own choices are saved.
        </p>
        {CLASSES.map(([cls, title, hint]) => {
          const list = props.crawlers.filter((cr) => cr.class === cls);
          if (!list.length) return null;
          const classDefault = cls === "user" ? ap.userFetchers : ap.defaultAction;
          return (
            <Scroll key={cls} label={title}>
              <table>
                <caption class="left">
                  <strong>{title}</strong> <span class="muted small">{hint}</span>
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Crawler</th>
                    <th scope="col">Operator</th>
                    <th scope="col">robots.txt tokens</th>
                    <th scope="col">Action</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((cr) => {
                    const name = `crawler.${cr.family}`;
                    const own = failed ? typed(name, "") : cr.own ? cr.action : "";
                    return (
                      <tr key={cr.family}>
                        <th scope="row">{cr.family}</th>
                        <td>{cr.operator}</td>
                        <td>
                          {cr.robotsTokens.map((t, i) => (
                            <span key={t}>
                              {i ? ", " : ""}
                              <code>{t}</code>
                            </span>
                          ))}
                        </td>
                        <td>
                          <select name={name} aria-label={`Action for ${cr.family}`}>
                            <option value="" selected={own === ""}>
                              Default ({ACTION_WORDS[classDefault]})
                            </option>
                            {(["allow", "charge", "block"] as const).map((a) => (
                              <option key={a} value={a} selected={own === a}>
                                {capital(ACTION_WORDS[a])}
                              </option>
                            ))}
                          </select>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </Scroll>
          );
        })}
        <p>
          <button type="submit">Save agent payments</button>
        </p>
      </form>
    </section>
  );
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
