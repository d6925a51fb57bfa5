/**
 * The SDK client's OAuth, run headlessly: a provider that follows the authorization redirect itself
 * and keeps the code, and a Folio whose base URL is its loopback address, so the resource URIs it
 * names are the ones the client connects to.
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { authorizeAsPerson, type ConsentAnswer } from "./consent_driver.ts";
import { startTestFolio, type TestFolio } from "./helpers.ts";

export const REDIRECT = "http://127.0.0.1:9/callback";

/**
 * An OAuthClientProvider that follows the authorization redirect itself, answering the consent
 * page as a person would when the publisher shows one (tests/consent_driver.ts), and keeps the code.
 */
export class HeadlessProvider implements OAuthClientProvider {
  constructor(readonly answer: ConsentAnswer = {}) {}
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  code: string | null = null;
  authorizeStatus = 0;

  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Headless test client",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL) {
    // No consent screen by default (docs/SPEC.md "Authentication" 3): 302 at once; else the form.
    const outcome = await authorizeAsPerson(url, this.answer);
    this.authorizeStatus = outcome.status;
    this.code = outcome.callback.searchParams.get("code");
  }
}

/** A Folio whose base URL is its loopback address, so resource URIs match what the client uses. */
export async function startLoopbackFolio(): Promise<TestFolio> {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  return await startTestFolio({
    env: { PORT: String(port), FOLIO_BASE_URL: `http://127.0.0.1:${port}` },
  });
}

/**
 * A fetch that connects every request to the test server whatever its URL's host, keeping that
 * host (as a browser resolving *.localhost would): for clients of a publisher's own domain.
 */
export function loopbackFetch(folio: TestFolio): { fetch: typeof fetch } & Disposable {
  const client = Deno.createHttpClient({
    proxy: { transport: "tcp", hostname: "127.0.0.1", port: Number(new URL(folio.url).port) },
  });
  return {
    fetch: (input, init) => fetch(input, { ...init, client }),
    [Symbol.dispose]: () => client.close(),
  };
}
