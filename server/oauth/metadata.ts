/** OAuth discovery: resource URIs and metadata documents (RFC 9728, RFC 8414). */
import type { Publisher } from "../../store/publishers.ts";
import { publisherUrls } from "../urls.ts";
import { SCOPES } from "./scope.ts";

/** The canonical MCP resource URI of a publisher: `${baseUrl}/api/mcp/${publisherId}`. */
export function mcpResourceUri(baseUrl: string, publisherId: string): string {
  return `${trimSlash(baseUrl)}/api/mcp/${publisherId}`;
}

/** RFC 9728 metadata URL: `${baseUrl}/.well-known/oauth-protected-resource/api/mcp/${publisherId}`. */
export function protectedResourceMetadataUrl(baseUrl: string, publisherId: string): string {
  return `${trimSlash(baseUrl)}/.well-known/oauth-protected-resource/api/mcp/${publisherId}`;
}

/**
 * Every MCP resource URI of a publisher: the canonical one and, on its custom domain, `/mcp`. Both
 * name the same server; a token for either works at both (server/identity.ts).
 */
export function mcpResourceUris(baseUrl: string, publisher: Publisher): string[] {
  const host = publisherUrls({ baseUrl }, publisher).mcpHost;
  return [mcpResourceUri(baseUrl, publisher.id), ...(host ? [host] : [])];
}

/** RFC 9728 §3.1: a resource's metadata URL, the well-known path inserted before its path. */
export function metadataUrlOf(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname}`;
}

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

function trimSlash(url: string): string {
  return url.endsWith("/") ? url.slice(0, -1) : url;
}
