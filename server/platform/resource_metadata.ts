/**
 * Where a publisher's MCP resource lives and where its RFC 9728 metadata is: URL arithmetic the
 * platform's identity check (server/platform/identity.ts), the MCP surface and the OAuth server all share.
 */
import type { Publisher } from "../../store/publishers.ts";
import { publisherUrls } from "./urls.ts";

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
 * name the same server; a token for either works at both (server/platform/identity.ts).
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

/** A base URL without its trailing slash. */
export function trimSlash(url: string): string {
  return url.endsWith("/") ? url.slice(0, -1) : url;
}
