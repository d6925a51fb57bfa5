/** OAuth discovery: the metadata documents (RFC 9728, RFC 8414); the URLs are in server/platform/resource_metadata.ts. */
import type { Publisher } from "../../../store/publishers.ts";
import { mcpResourceUri, trimSlash } from "../../platform/resource_metadata.ts";
import { SCOPES } from "./scope.ts";

/** RFC 8414 authorization server metadata; the issuer is the platform base URL. */
export function authorizationServerMetadata(baseUrl: string): Record<string, unknown> {
  const issuer = trimSlash(baseUrl);
  return {
    issuer,
    authorization_endpoint: `${issuer}/api/oauth/authorize`,
    token_endpoint: `${issuer}/api/oauth/token`,
    registration_endpoint: `${issuer}/api/oauth/register`,
    scopes_supported: SCOPES,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    // Public clients only: PKCE, not a client secret, protects the code (OAuth 2.1 §7.5).
    token_endpoint_auth_methods_supported: ["none"],
    code_challenge_methods_supported: ["S256"],
    // RFC 9207: every authorization response carries `iss`.
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${issuer}/`,
  };
}

/** RFC 9728 protected resource metadata of a publisher's MCP endpoint (by default the canonical one). */
export function protectedResourceMetadata(
  baseUrl: string,
  publisher: Publisher,
  resource = mcpResourceUri(baseUrl, publisher.id),
): Record<string, unknown> {
  return {
    resource,
    authorization_servers: [trimSlash(baseUrl)],
    scopes_supported: SCOPES,
    // MCP forbids tokens in query strings; only the Authorization header is read.
    bearer_methods_supported: ["header"],
    resource_name: publisher.name,
    resource_documentation: `${trimSlash(baseUrl)}/license/${publisher.id}`,
  };
}
