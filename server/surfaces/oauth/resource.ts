/**
 * RFC 8707 resource indicators: the `resource` parameter names exactly one publisher's MCP endpoint
 * (one of its URIs, byte for byte: `{base}/api/mcp/<id>` or `/mcp` on its custom domain), and every
 * code and token is bound to it.
 */
import type { Client } from "../../../store/db.ts";
import { findPublisherByDomain, getPublisher, type Publisher } from "../../../store/publishers.ts";
import { OAuthError } from "./errors.ts";
import { mcpResourceUri, mcpResourceUris } from "../../platform/resource_metadata.ts";

/** The publisher one of whose MCP resource URIs is `resource`, or throws `invalid_target`. */
export async function publisherForResource(
  db: Client,
  resource: string,
  options: { baseUrl: string },
): Promise<Publisher> {
  const prefix = mcpResourceUri(options.baseUrl, "");
  const publisher = resource.startsWith(prefix)
    ? await byId(db, resource.slice(prefix.length))
    : await findPublisherByDomain(db, hostnameOf(resource));
  if (!publisher || !mcpResourceUris(options.baseUrl, publisher).includes(resource)) {
    throw notOurs();
  }
  return publisher;
}

function byId(db: Client, id: string): Promise<Publisher | null> {
  return /^[A-Za-z0-9_-]{1,64}$/.test(id) ? getPublisher(db, id) : Promise.resolve(null);
}

function hostnameOf(resource: string): string {
  try {
    return new URL(resource).hostname;
  } catch {
    return "";
  }
}

/** The one `resource` value of a request; several, or none when required, are refused. */
export function singleResource(values: string[], options: { required: boolean }): string | null {
  if (values.length > 1) {
    throw new OAuthError("invalid_target", "resource: name exactly one MCP resource");
  }
  if (values.length === 0 || values[0] === "") {
    if (!options.required) return null;
    // MCP 2025-06-18 "Resource Parameter Implementation": clients MUST send it.
    throw new OAuthError(
      "invalid_target",
      "resource: required; use the publisher's MCP endpoint URL from its protected resource metadata",
    );
  }
  return values[0];
}

function notOurs(): OAuthError {
  return new OAuthError(
    "invalid_target",
    "resource: must be the MCP endpoint URL of a publisher on this server",
  );
}
