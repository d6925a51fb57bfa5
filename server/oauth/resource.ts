/**
 * RFC 8707 resource indicators: the `resource` parameter names exactly one publisher's MCP endpoint
 * (its canonical URI, byte for byte), and every code and token is bound to it.
 */
import type { Client } from "../../store/db.ts";
import { getPublisher, type Publisher } from "../../store/publishers.ts";
import { OAuthError } from "./errors.ts";
import { mcpResourceUri } from "./metadata.ts";

/** The publisher whose MCP resource URI is `resource`, or throws `invalid_target`. */
export async function publisherForResource(
  db: Client,
  resource: string,
  options: { baseUrl: string },
): Promise<Publisher> {
  const prefix = mcpResourceUri(options.baseUrl, "");
  const id = resource.startsWith(prefix) ? resource.slice(prefix.length) : "";
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw notOurs();
  const publisher = await getPublisher(db, id);
  if (!publisher || mcpResourceUri(options.baseUrl, publisher.id) !== resource) throw notOurs();
  return publisher;
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
    "resource: must be the canonical MCP endpoint URL of a publisher on this server",
  );
}
