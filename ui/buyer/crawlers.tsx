/**
 * Crawlers: the buyer's Web Bot Auth key directories, and how a crawler registers one and pays on a
 * publisher's pages. Registering is the crawler's own signed call, so the page shows it, not a form.
 */
import type { z } from "zod";
import type { signatureAgentsSchema } from "../../server/surfaces/marketplace/schemas.ts";
import type { olpClientSchema } from "../../server/surfaces/marketplace/olp_schemas.ts";
import { KeyOnce } from "../console/account.tsx";
import { Scroll } from "../console/scroll.tsx";
import { CopyBlock, CsrfField, When } from "../console/shell.tsx";
import { BuyerShell, type BuyerWho } from "./shell.tsx";

/** One entry of GET /api/marketplace/signature-agents. */
export type AgentView = z.output<typeof signatureAgentsSchema>["agents"][number];

/** What the page shows. */
export interface CrawlersProps {
  who: BuyerWho;
  agents: AgentView[];
  /** The platform's base URL, where the marketplace API answers. */
  baseUrl: string;
  notice?: string | null;
  /** The API's words when removing a directory was refused. */
  failed?: string | null;
  /** The buyer's RSL license-server client (GET /api/marketplace/olp-client). */
  olp: z.output<typeof olpClientSchema>;
  /** A secret just issued: in the answer to that post only. */
  newSecret?: { clientId: string; secret: string } | null;
}

/** Where a key directory is served, under its origin (draft-meunier-http-message-signatures-directory). */
export const DIRECTORY_PATH = "/.well-known/http-message-signatures-directory";

/** The signed registration call, with placeholders for what only the crawler has. */
export function registrationExample(baseUrl: string): string {
  return [
    `curl -X POST ${baseUrl}/api/marketplace/signature-agents \\`,
    `  -H "Authorization: Bearer $FOLIO_API_KEY" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -H 'Signature-Agent: "https://crawler.example"' \\`,
    `  -H 'Signature-Input: sig1=("@authority" "@path" "signature-agent");created=<now>;expires=<now+300>;keyid="<JWK thumbprint>";alg="ed25519";nonce="<new random value>";tag="web-bot-auth"' \\`,
    `  -H 'Signature: sig1=:<base64 Ed25519 signature of the signature base>:' \\`,
    `  -d '{"agent": "https://crawler.example"}'`,
  ].join("\n");
}

/** A paid read of a publisher's page, signed, with the price covered by the signature. */
export function paidCrawlExample(): string {
  return [
    `GET /2026/03/harbor-report HTTP/1.1`,
    `Host: news.publisher.example`,
    `User-Agent: ExampleCrawler/1.0 (+https://crawler.example)`,
    `crawler-exact-price: USD 0.05`,
    `Signature-Agent: "https://crawler.example"`,
    `Signature-Input: sig1=("@authority" "@path" "signature-agent" "crawler-exact-price");created=<now>;expires=<now+300>;keyid="<JWK thumbprint>";alg="ed25519";nonce="<new random value>";tag="web-bot-auth"`,
    `Signature: sig1=:<base64 signature>:`,
    ``,
    `HTTP/1.1 200 OK`,
    `crawler-charged: USD 0.05`,
  ].join("\n");
}

/** GET /buyer/crawlers. */
export function CrawlersPage(props: CrawlersProps) {
  return (
    <BuyerShell who={props.who} section="crawlers" title="Crawlers" notice={props.notice}>
      <section class="card" aria-labelledby="directories-title">
        <h2 id="directories-title">Your key directories</h2>
        <p class="hint">
          A crawler that signs its requests with a key from one of these directories pays as you on
          publishers' pages: its reads go on your statement, under your budgets and the cap.
        </p>
        {props.failed ? <p class="problem" role="alert">{props.failed}</p> : null}
        {props.agents.length === 0
          ? (
            <p class="muted">
              No key directory is registered to you yet. Your crawler registers its own, as below.
            </p>
          )
          : (
            <Scroll label="Registered key directories">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Directory (Signature-Agent)</th>
                    <th scope="col">Registered</th>
                    <th scope="col">
                      <span class="sr-only">Remove</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {props.agents.map((a) => (
                    <tr key={a.agent}>
                      <td>
                        <code>{a.agent}</code>
                        <span class="hint" style="display:block">
                          {a.agent}
                          {DIRECTORY_PATH}
                        </span>
                      </td>
                      <td class="nowrap">
                        <When iso={a.createdAt} />
                      </td>
                      <td>
                        <form method="post" action="/buyer/crawlers/remove" class="inline">
                          <CsrfField token={props.who.csrfToken} />
                          <input type="hidden" name="agent" value={a.agent} />
                          <button
                            type="submit"
                            class="secondary"
                            aria-label={`Remove ${a.agent}`}
                          >
                            Remove
                          </button>
                        </form>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          )}
      </section>

      {props.newSecret
        ? (
          <KeyOnce
            title="Your license server secret"
            apiKey={props.newSecret.secret}
            next="/buyer/crawlers"
            nextLabel="Done"
          >
            <p>
              Your crawler sends it with client id <code>{props.newSecret.clientId}</code>{" "}
              (HTTP Basic) to{" "}
              <code>{props.olp.tokenEndpoint}</code>. The previous secret, if any, no longer works.
            </p>
          </KeyOnce>
        )
        : null}
      <section class="card" aria-labelledby="olp-title">
        <h2 id="olp-title">License server credentials (RSL)</h2>
        <p class="hint">
          Publishers' license.xml files name Folio as their license server. With these credentials
          your crawler gets a short-lived license token for a page and reads it with{" "}
          <code>Authorization: License &lt;token&gt;</code>; each read goes on your statement.
        </p>
        {props.olp.client
          ? (
            <p>
              Client id <code>{props.olp.client.clientId}</code>, secret last issued{" "}
              <When iso={props.olp.client.rotatedAt} />. Folio keeps only its hash, so it cannot
              show it again; if it is lost or has leaked, issue a new one.
            </p>
          )
          : <p class="muted">You have no license server credentials yet.</p>}
        <form method="post" action="/buyer/crawlers/olp">
          <CsrfField token={props.who.csrfToken} />
          <button type="submit">
            {props.olp.client ? "Issue a new secret" : "Issue credentials"}
          </button>
        </form>
      </section>

      <section class="card" aria-labelledby="howto-title">
        <h2 id="howto-title">How to register your crawler</h2>
        <p>
          <strong>Web Bot Auth</strong>{" "}
          lets a crawler prove who it is by signing each request (HTTP Message Signatures, RFC 9421)
          with an Ed25519 key it publishes on its own site.
        </p>
        <ol>
          <li>
            Serve your public keys as a JWKS directory at{" "}
            <code>{`https://crawler.example${DIRECTORY_PATH}`}</code>{" "}
            (your crawler's origin instead of crawler.example).
          </li>
          <li>
            Have the crawler make this call, signed with a key of that directory: it shows Folio the
            directory is yours, so the portal cannot make it for you. Your API key goes in{" "}
            <code>$FOLIO_API_KEY</code>; it is never shown here.
            <CopyBlock
              label="Signed registration call"
              value={registrationExample(props.baseUrl)}
            />
            <p class="hint">
              Every signature must cover <code>@authority</code> and <code>signature-agent</code>
              {" "}
              (cover <code>@path</code> too: recommended) and be tagged <code>web-bot-auth</code>;
              {" "}
              <code>created</code> and <code>expires</code>{" "}
              are Unix times at most 24 hours apart. A signature is good for one request: sign each
              request afresh, with a new <code>nonce</code>. A library such as Cloudflare's{" "}
              <code>web-bot-auth</code> builds these headers.
            </p>
          </li>
        </ol>
        <h3>Crawl and pay on a publisher's pages</h3>
        <p>
          A priced page first answers <code>402</code> with{" "}
          <code>crawler-price: USD 0.05</code>. Retry signed, sending{" "}
          <code>crawler-exact-price</code> (the price) or <code>crawler-max-price</code>{" "}
          (the most you pay), covered by the signature; the page comes with{" "}
          <code>crawler-charged</code>, the amount on your statement.
        </p>
        <CopyBlock label="A signed, paid read" value={paidCrawlExample()} />
        <p class="hint">
          Without a signature, a buyer key works too: send <code>Authorization: Bearer mk_…</code>
          {" "}
          with the price header.
        </p>
      </section>
    </BuyerShell>
  );
}
