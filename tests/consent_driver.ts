/**
 * A person at the authorization endpoint, for the independent clients' tests (MCP SDK,
 * oauth4webapi): opens the authorization URL; without a consent screen it answers 302 with the
 * code at once; with one (the publisher's consentScreen toggle) it reads the page's form as a
 * browser would (no JavaScript), types the email, accepts the terms, optionally bills a buyer
 * account it is signed in to (the buyer portal's session cookie), presses Allow or Deny, and
 * follows the 303 to the client's redirect URI. No field name is guessed: the form's own hidden
 * fields go back as they came.
 */

/** What the person does on the consent page. */
export interface ConsentAnswer {
  email?: string;
  decision?: "approve" | "deny";
  /** The buyer portal's session cookie (`folio_buyer_session=…`), to bill that account. */
  buyerSession?: string;
  fetch?: typeof fetch;
}

/** Where the authorization ended: the client's redirect URI with its query, and what it took. */
export interface ConsentOutcome {
  /** The URL the browser was sent to (the client's redirect URI with code or error). */
  callback: URL;
  /** 302 straight back (no consent screen), or 303 after the consent form. */
  status: number;
  /** Whether a consent page was shown and answered. */
  consented: boolean;
}

/** Runs the authorization step as a person would; throws if it does not end at a redirect. */
export async function authorizeAsPerson(
  url: URL | string,
  answer: ConsentAnswer = {},
): Promise<ConsentOutcome> {
  const go = answer.fetch ?? fetch;
  const cookies = answer.buyerSession ? [answer.buyerSession] : [];
  const opened = await go(url, {
    redirect: "manual",
    headers: cookies.length ? { cookie: cookies.join("; ") } : {},
  });
  if (opened.status === 302) {
    await opened.body?.cancel();
    return { callback: new URL(opened.headers.get("location")!), status: 302, consented: false };
  }
  const html = await opened.text();
  if (opened.status !== 200) throw new Error(`authorize answered ${opened.status}: ${html}`);
  const form = /<form method="post" action="([^"]+)"[\s\S]*?<\/form>/.exec(html);
  if (!form) throw new Error("no consent form on the page");
  const fields = new URLSearchParams();
  for (const m of form[0].matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"/g)) {
    fields.append(unescape(m[1]), unescape(m[2]));
  }
  fields.set("email", answer.email ?? "reader@example.com");
  fields.set("accept_terms", "yes");
  if (answer.buyerSession && fields.has("buyer")) fields.set("payer", "buyer");
  fields.set("decision", answer.decision ?? "approve");
  const csrf = (opened.headers.get("set-cookie") ?? "").split(";")[0];
  const action = new URL(unescape(form[1]), url);
  const sent = await go(action, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: [csrf, ...cookies].join("; "),
      origin: action.origin,
    },
    body: fields.toString(),
  });
  const body = await sent.text();
  const location = sent.headers.get("location");
  if (sent.status !== 303 || !location) {
    throw new Error(`the consent answer got ${sent.status}: ${body.slice(0, 400)}`);
  }
  return { callback: new URL(location), status: 303, consented: true };
}

function unescape(s: string): string {
  return s.replaceAll("&quot;", '"').replaceAll("&lt;", "<").replaceAll("&gt;", ">")
    .replaceAll("&#39;", "'").replaceAll("&#x27;", "'").replaceAll("&amp;", "&");
}
