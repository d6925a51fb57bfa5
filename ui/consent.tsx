/**
 * The OAuth consent page (issue 42: a product page in the portals' kit, branded with the publisher's
 * logo, primary colour and font), its expired-form page, and the authorization error page. It says
 * which app asks (its name unverified when the app chose it), where the browser returns, what the
 * app may do, and who pays for its reads. Preact escapes every interpolation (client names are
 * attacker input). No script: Allow and Deny are plain form buttons.
 */
import type { Publisher } from "../store/publishers.ts";
import { CONSOLE_CSS } from "./console/style.ts";
import { Page, Stylesheet } from "./layout.tsx";
import { USE_LABELS } from "./terms.tsx";
import { palette, safeFont, safeUrl } from "./site/brand.ts";

/** A buyer account as the page names it. */
export interface PayingBuyer {
  id: string;
  name: string;
  email: string;
}

/** Who pays for the app's reads (server/surfaces/oauth/consent.ts `Payer`), with its links. */
export type PayerView =
  | { kind: "linked"; buyer: PayingBuyer }
  | { kind: "signed_in"; buyer: PayingBuyer }
  | { kind: "sign_in"; signInUrl: string }
  | { kind: "none" };

/** What the consent page shows and posts back. */
export interface ConsentProps {
  publisher: Publisher;
  clientName: string | null;
  /** True when the app named itself at registration (RFC 7591): nobody checked the name. */
  selfNamed: boolean;
  redirectHost: string;
  termsUrl: string;
  /** What anyone is granted without a license (server/domain/licensing/rights.ts publicRights). */
  rights: Record<string, boolean>;
  /** The free paywalled reads a month a reader without a buyer account gets. */
  meterLimit: number;
  payer: PayerView;
  /** The authorization request's parameters, posted back unchanged and checked again. */
  params: Record<string, string>;
  csrfToken: string;
  email: string;
  problem: string | null;
}

/** The consent page. */
export function ConsentPage(props: ConsentProps) {
  const { publisher: p } = props;
  const logo = safeUrl(p.branding.logoUrl);
  const app = props.clientName ?? "An unnamed application";
  return (
    <ConsentFrame
      title={`Connect ${app} to ${p.name}`}
      color={p.branding.primaryColor}
      font={safeFont(p.branding.font)}
    >
      <header class="consent-head">
        {logo ? <img src={logo} alt={p.name} class="logo" /> : null}
        <h1>Connect an app to {p.name}</h1>
      </header>
      {props.problem ? <p class="problem" role="alert">{props.problem}</p> : null}

      <section class="card" aria-labelledby="app-title">
        <h2 id="app-title">The app asking</h2>
        <p class="app-name">
          <strong>{app}</strong>{" "}
          {props.selfNamed ? <span class="tag unverified">Unverified name</span> : null}
        </p>
        <p class="hint">
          {props.selfNamed
            ? "The app chose this name itself when it registered; Folio has not checked who made it. "
            : "The buyer account that registered this app gave it this name. "}
          After you answer, your browser returns to{" "}
          <code>{props.redirectHost}</code>: go on only if you started this from an app you trust
          there.
        </p>
      </section>

      <section class="card" aria-labelledby="may-title">
        <h2 id="may-title">What it may do</h2>
        <ul>
          <li>
            Search {p.name}'s catalog and read its articles through{" "}
            {p.name}'s MCP server and agent (the <code>mcp</code> scope), in your name.
          </li>
          <li>Keep this access for up to 30 days, renewed every hour, unless it is revoked.</li>
        </ul>
        <p>Under {p.name}'s license terms, without a license of your own:</p>
        <ul class="rights">
          {Object.entries(USE_LABELS).map(([use, label]) => (
            <li key={use}>
              {label}: <strong>{props.rights[use] ? "granted" : "denied"}</strong>
            </li>
          ))}
        </ul>
      </section>

      <section class="card" aria-labelledby="pays-title">
        <h2 id="pays-title">Who pays for its reads</h2>
        <PayerWords payer={props.payer} publisher={p.name} meterLimit={props.meterLimit} />
      </section>

      <form method="post" action="/api/oauth/authorize" class="card" aria-labelledby="answer-title">
        <h2 id="answer-title">Your answer</h2>
        {Object.entries(props.params).map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        <input type="hidden" name="csrf_token" value={props.csrfToken} />
        {props.payer.kind === "signed_in"
          ? <input type="hidden" name="buyer" value={props.payer.buyer.id} />
          : null}
        <label for="email">Your email</label>
        <p class="hint" id="email-hint">
          {p.name} sees it beside every call the app makes.
        </p>
        <input
          id="email"
          type="email"
          name="email"
          required
          maxLength={254}
          autocomplete="email"
          value={props.email}
          aria-describedby="email-hint"
        />
        {props.payer.kind === "signed_in"
          ? (
            <fieldset>
              <legend>Bill the app's reads to</legend>
              <label class="check">
                <input type="radio" name="payer" value="buyer" checked />
                <span>
                  Your buyer account <strong>{props.payer.buyer.name}</strong>
                </span>
              </label>
              <label class="check">
                <input type="radio" name="payer" value="none" />
                <span>Nobody: the app reads as a reader without a license</span>
              </label>
            </fieldset>
          )
          : null}
        <label class="check">
          <input type="checkbox" name="accept_terms" value="yes" required />
          <span>
            I accept <a href={props.termsUrl}>{p.name}'s license terms</a>
          </span>
        </label>
        <p class="row">
          <button class="approve" type="submit" name="decision" value="approve">Allow</button>
          <button class="secondary" type="submit" name="decision" value="deny" formnovalidate>
            Deny
          </button>
        </p>
      </form>
    </ConsentFrame>
  );
}

function PayerWords(props: { payer: PayerView; publisher: string; meterLimit: number }) {
  const { payer } = props;
  const limits = (
    <>
      Its licenses with {props.publisher} and its <a href="/buyer/budgets">budgets</a>{" "}
      apply: a read the budget cannot cover is refused, not billed.
    </>
  );
  const nobody = `Nobody is billed: the app gets ${props.publisher}'s free articles, and ${
    props.meterLimit === 1 ? "1 paywalled article" : `${props.meterLimit} paywalled articles`
  } a month before it is asked to license the rest.`;
  if (payer.kind === "linked") {
    return (
      <p>
        The buyer account <strong>{payer.buyer.name}</strong>{" "}
        ({payer.buyer.email}) pays for every article the app reads, at{" "}
        {props.publisher}'s per-use prices; this app is already billed to it. {limits}
      </p>
    );
  }
  if (payer.kind === "signed_in") {
    return (
      <>
        <p>
          You are signed in to the buyer account <strong>{payer.buyer.name}</strong>{" "}
          ({payer.buyer.email}). If you bill the app's reads to it, it pays for every article the
          app reads at {props.publisher}'s per-use prices. {limits}
        </p>
        <p class="hint">
          Not your account?{" "}
          <a href="/buyer">Sign out in the buyer portal</a>, then come back to the app.
        </p>
      </>
    );
  }
  if (payer.kind === "sign_in") {
    return (
      <>
        <p>{nobody}</p>
        <p>
          To bill the reads to your company's buyer account, so that its licenses and budgets apply,
          {" "}
          <a href={payer.signInUrl}>sign in to the buyer portal</a>: you come back here.
        </p>
      </>
    );
  }
  return <p>{nobody} {props.publisher} does not bill apps to buyer accounts.</p>;
}

/** A consent form sent without its token, or with a stale one: nothing happened, start again. */
export function ConsentExpiredPage(props: { again: string | null }) {
  return (
    <ConsentFrame title="This connection request has expired" color={null} font={null}>
      <h1>This connection request has expired</h1>
      <p class="problem" role="alert">
        Nothing was allowed: Folio could not tell that the answer came from the page it showed you.
      </p>
      <p>
        The page was open too long (an hour at most), cookies were cleared, or the answer was sent
        from another site.
      </p>
      {props.again
        ? (
          <p>
            <a href={props.again}>Open the connection request again</a>, check it, and answer once
            more.
          </p>
        )
        : <p>Go back to the app and connect again.</p>}
    </ConsentFrame>
  );
}

/** The page for authorization errors that must not be redirected (RFC 6749 §4.1.2.1). */
export function AuthorizeErrorPage(props: { error: string; description: string }) {
  return (
    <ConsentFrame title="Authorization failed" color={null} font={null}>
      <h1>This connection request cannot continue</h1>
      <p class="problem" role="alert">{props.description}</p>
      <p>
        Error: <code>{props.error}</code>. Ask the application you came from to connect again.
      </p>
    </ConsentFrame>
  );
}

/**
 * The page around the consent: the portals' stylesheet, in the publisher's colour (its brand as a
 * band, darkened where text or buttons need 4.5:1, ui/site/brand.ts palette) and font.
 */
function ConsentFrame(
  props: {
    title: string;
    color: string | null;
    font: string | null;
    children: preact.ComponentChildren;
  },
) {
  const { brand, ink } = palette(props.color);
  const font = props.font ? `body{font-family:${props.font}}` : "";
  return (
    <Page title={`${props.title} · Folio`} accent={ink} css={CONSOLE_CSS} landmarks="own">
      <Stylesheet
        css={`${font}.consent{max-width:36rem;border-top:6px solid ${brand};padding-top:1rem}
.consent-head .logo{max-height:64px;max-width:100%}
.approve{background:${ink};border-color:${ink}}button.secondary{color:${ink};border-color:${ink}}
.tag.unverified{background:#fffbeb;border-color:#f59e0b;color:#78350f}.app-name{overflow-wrap:anywhere}
fieldset{border:1px solid #e2e8f0;border-radius:8px;margin:.8rem 0}ul.rights{padding-left:1.2rem}`}
      />
      <main class="auth consent" id="main">
        {props.children}
      </main>
    </Page>
  );
}
