/**
 * The OAuth consent screen, branded with the publisher's logo, primary colour and font, and the
 * authorization error page. Preact escapes every interpolation (client names are attacker input).
 */
import type { Publisher } from "../store/publishers.ts";
import { Page } from "./layout.tsx";

/** What the consent page shows and posts back. */
export interface ConsentProps {
  publisher: Publisher;
  clientName: string | null;
  redirectHost: string;
  termsUrl: string;
  /** The authorization request's parameters, posted back unchanged and checked again. */
  params: Record<string, string>;
  csrfToken: string;
  email: string;
  subscriptionLinking: boolean;
  problem: string | null;
}

/** The consent page. */
export function ConsentPage(props: ConsentProps) {
  const { publisher: p } = props;
  const color = safeColor(p.branding.primaryColor);
  const font = safeFont(p.branding.font);
  const logo = safeLogo(p.branding.logoUrl);
  const app = props.clientName ?? "An AI application";
  return (
    <Page title={`Connect to ${p.name}`} accent={color}>
      <style>
        {`body{font-family:${font}}button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid ${color}}
.approve{background:${color};color:#fff}.deny{background:#fff;color:${color}}
label{display:block;margin:.8rem 0}input[type=email],input[type=text]{font:inherit;padding:.4rem;width:100%;max-width:24rem}
.problem{color:#b91c1c}`}
      </style>
      <header>
        {logo ? <img src={logo} alt={p.name} style="max-height:64px" /> : null}
        <h1>Connect to {p.name}</h1>
      </header>
      <p>
        <strong>{app}</strong> wants to use {p.name}'s articles on your behalf. You will return to
        {" "}
        <code>{props.redirectHost}</code>.
      </p>
      {props.problem ? <p class="problem" role="alert">{props.problem}</p> : null}
      <form method="post" action="/api/oauth/authorize">
        {Object.entries(props.params).map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        <input type="hidden" name="csrf_token" value={props.csrfToken} />
        <label>
          Your email
          <input type="email" name="email" required maxLength={254} value={props.email} />
        </label>
        <label>
          <input type="checkbox" name="accept_terms" value="yes" required /> I accept{" "}
          <a href={props.termsUrl} target="_blank" rel="noopener">{p.name}'s license terms</a>
        </label>
        {props.subscriptionLinking
          ? (
            <details>
              <summary>Link an existing subscription</summary>
              <label>
                Your buyer API key (mk_…)
                <input type="text" name="buyer_key" autocomplete="off" maxLength={64} />
              </label>
            </details>
          )
          : null}
        <p>
          <button class="approve" type="submit" name="decision" value="approve">Allow</button>{" "}
          <button class="deny" type="submit" name="decision" value="deny" formnovalidate>
            Deny
          </button>
        </p>
      </form>
    </Page>
  );
}

/** The page for authorization errors that must not be redirected (RFC 6749 §4.1.2.1). */
export function AuthorizeErrorPage(props: { error: string; description: string }) {
  return (
    <Page title="Authorization failed">
      <h1>This connection request cannot continue</h1>
      <p>{props.description}</p>
      <p>
        Error: <code>{props.error}</code>. Ask the application you came from to connect again.
      </p>
    </Page>
  );
}

function safeColor(v: string | null): string {
  return v && /^#[0-9a-fA-F]{3,8}$/.test(v) ? v : "#1d4ed8";
}

// The font lands inside a <style> element, so only a plain family list is allowed.
function safeFont(v: string | null): string {
  const ok = v && /^[A-Za-z0-9 ,-]{1,80}$/.test(v);
  return ok ? `${v},system-ui,sans-serif` : "system-ui,sans-serif";
}

function safeLogo(v: string | null): string | null {
  if (!v) return null;
  try {
    const u = new URL(v);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}
