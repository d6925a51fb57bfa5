/**
 * An independent OAuth client library (oauth4webapi) completes Folio's whole flow: RFC 8414
 * discovery, RFC 7591 registration, authorization with PKCE S256 (checking `iss` and `state`),
 * code exchange with RFC 8707 `resource`, a call at the MCP server, and refresh rotation; with no
 * consent screen and through the consent page (answered as a person would: tests/consent_driver.ts).
 */
import assert from "node:assert/strict";
import * as oauth from "oauth4webapi";
import { mcpResourceUri } from "../server/platform/resource_metadata.ts";
import { getPublisher, updatePublisher } from "../store/publishers.ts";
import { authorizeAsPerson } from "./consent_driver.ts";
import { startTestFolio } from "./helpers.ts";

// Tests serve plain http on loopback; production issuers are https.
const insecure = { [oauth.allowInsecureRequests]: true };

for (const consentScreen of [false, true]) {
  const how = consentScreen ? "through the consent page" : "with no consent screen";
  Deno.test(`oauth4webapi discovers, registers, authorizes ${how}, exchanges, calls MCP and refreshes`, async () => {
    await using folio = await startTestFolio();
    if (consentScreen) {
      const p = (await getPublisher(folio.deps.store.db, "pub_demo"))!;
      await updatePublisher(folio.deps.store.db, {
        ...p,
        toggles: { ...p.toggles, consentScreen: true },
      }, { now: folio.clock.now() });
    }
    const issuer = new URL(folio.config.baseUrl);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }),
    );
    assert.equal(as.issuer, folio.config.baseUrl);
    assert.deepEqual(as.code_challenge_methods_supported, ["S256"]);

    const redirectUri = "http://127.0.0.1:53682/callback";
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, {
        redirect_uris: [redirectUri],
        client_name: "oauth4webapi test client",
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      }, insecure),
    );
    const client: oauth.Client = {
      client_id: registered.client_id,
      token_endpoint_auth_method: "none",
    };

    const resource = mcpResourceUri(folio.config.baseUrl, "pub_demo");
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorize = new URL(as.authorization_endpoint!);
    authorize.search = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      resource,
    }).toString();
    // No consent screen by default: 302 straight back with the code; else the form, answered.
    const { callback, status } = await authorizeAsPerson(authorize);
    assert.equal(status, consentScreen ? 303 : 302);
    assert.equal(callback.origin + callback.pathname, redirectUri);
    const params = oauth.validateAuthResponse(as, client, callback, state);

    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        params,
        redirectUri,
        verifier,
        {
          additionalParameters: { resource },
          ...insecure,
        },
      ),
    );
    assert.equal(tokens.token_type.toLowerCase(), "bearer");
    assert.equal(tokens.expires_in, 3600);
    assert.ok(tokens.refresh_token);

    const mcp = await fetch(resource.replace("localhost", "127.0.0.1"), {
      method: "POST",
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "oauth4webapi-test", version: "1.0.0" },
        },
      }),
    });
    assert.equal(mcp.status, 200);
    assert.ok(mcp.headers.get("mcp-session-id"));
    await mcp.body?.cancel();

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(
        as,
        client,
        oauth.None(),
        tokens.refresh_token!,
        insecure,
      ),
    );
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
    // The rotated-out refresh token is dead, and presenting it revokes the family.
    await assert.rejects(async () =>
      oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(
          as,
          client,
          oauth.None(),
          tokens.refresh_token!,
          insecure,
        ),
      )
    );
  });
}
