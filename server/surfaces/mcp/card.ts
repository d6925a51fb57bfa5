/**
 * The publisher card (docs/SPEC.md "MCP server" discovery): served at GET /api/publishers/<id>/card,
 * GET /.well-known/mcp.json?slug=<slug> and by the server/discover JSON-RPC method. Public facts
 * only: no keys, no counts, no settings beyond what an agent needs to connect and license.
 */
import type { Publisher } from "../../../store/publishers.ts";
import type { Config } from "../../platform/config.ts";
import { pricesInCents } from "../../platform/money.ts";
import { REQUEST_VIA } from "../../domain/licensing/mod.ts";
import { mcpResourceUri, protectedResourceMetadataUrl } from "../../platform/resource_metadata.ts";
import { offered, openToAnonymous } from "../../domain/licensing/reach.ts";
import { publisherUrls } from "../../platform/urls.ts";
import { enabledSponsorTools } from "./sponsor_tools.ts";
import { CORE_TOOLS } from "./tools.ts";
import { PROMPTS } from "./prompts.ts";

import { SUPPORTED_PROTOCOL_VERSIONS } from "../../domain/mcp_versions.ts";
import { publicRights, rightsWords } from "../../domain/licensing/rights.ts";

/** The card of one publisher. */
export function publisherCard(config: Pick<Config, "baseUrl">, p: Publisher) {
  const urls = publisherUrls(config, p);
  const tools = [...CORE_TOOLS, ...enabledSponsorTools(p.sponsorTools)];
  return {
    id: p.id,
    slug: p.slug,
    name: p.name,
    description: p.description,
    mcp: {
      endpoint: urls.mcp,
      // The same server on the publisher's own domain (null without one).
      hostEndpoint: urls.mcpHost,
      transport: "streamable-http",
      protocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
      capabilities: ["tools", "resources", "prompts", "completions"],
      mcpApps: p.toggles.mcpApps,
    },
    tools: tools.map((t) => ({ name: t.name, title: t.title, description: t.description })),
    prompts: PROMPTS.map((t) => ({ name: t.name, title: t.title, description: t.description })),
    auth: !openToAnonymous(p, "mcp")
      ? {
        required: true,
        type: "oauth2",
        resource: mcpResourceUri(config.baseUrl, p.id),
        resourceMetadata: protectedResourceMetadataUrl(config.baseUrl, p.id),
        authorizationServer: `${config.baseUrl}/.well-known/oauth-authorization-server`,
        alsoAccepted: "A buyer key (mk_...) as Authorization: Bearer",
      }
      : {
        required: false,
        optional: "OAuth 2.1 (see resourceMetadata) or a buyer key as Bearer: bills reads to you",
        resourceMetadata: protectedResourceMetadataUrl(config.baseUrl, p.id),
      },
    license: {
      termsUrl: urls.terms,
      rights: rightsWords(publicRights(p.rights)),
      pricingUsdCents: pricesInCents(p.pricesMicros),
      paywallMeterLimit: p.paywallMeterLimit,
      requestVia: REQUEST_VIA,
    },
    links: { agentCard: offered(p, "a2a") ? urls.agentCard : null, rest: urls.rest },
  };
}
