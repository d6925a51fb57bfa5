/**
 * A publisher's Agent Card (A2A v1.0 §4.4 and v0.3 §5.5; docs/SPEC.md "A2A server"). Built as the
 * SDK's AgentCard and serialised with its own ProtoJSON writer. One card serves both versions:
 * where v0.3 and v1.0 name a field differently, both are present, since no key collides (v0.3's
 * `url`, `preferredTransport`, `additionalInterfaces`, `protocolVersion`, `security`,
 * `supportsAuthenticatedExtendedCard`, and in each security scheme `type` with its OpenAPI-like
 * fields beside the v1.0 one-of member). A client that sends `A2A-Version: 1.x` (the v1.0 SDK
 * does) gets the v1.0 form alone, which its parser takes whole. Only public facts go in.
 */
import { AgentCard, type SecurityRequirement, type SecurityScheme } from "@a2a-js/sdk";
import type { Publisher } from "../../../store/publishers.ts";
import type { Config } from "../../platform/config.ts";
import { openToAnonymous } from "../../domain/licensing/reach.ts";
import { READ_LIMITS as L } from "../../domain/reads/inputs.ts";
import { publisherUrls } from "../../platform/urls.ts";

const MODES = ["text/plain", "application/json"];

/** Which card form a request asked for, by its A2A-Version header (absent in v0.3). */
export function cardForm(version: string | undefined): "v1" | "both" {
  const major = /^\s*(\d+)(\.\d+)?\s*$/.exec(version ?? "")?.[1];
  return major !== undefined && Number(major) >= 1 ? "v1" : "both";
}

/** The card as JSON for `publisher`: v1.0 alone, or v1.0 with the v0.3 fields beside it. */
export function agentCardJson(
  config: Pick<Config, "baseUrl">,
  publisher: Publisher,
  form: "v1" | "both" = "both",
): Record<string, unknown> {
  const card = agentCard(config, publisher);
  const v1 = AgentCard.toJSON(card) as Record<string, unknown>;
  if (form === "v1") return v1;
  const endpoint = card.supportedInterfaces[0].url;
  const v1Schemes = (v1.securitySchemes ?? {}) as Record<string, Record<string, unknown>>;
  return {
    ...v1,
    securitySchemes: Object.fromEntries(
      Object.entries(card.securitySchemes).map(([name, scheme]) => [
        name,
        { ...v03Scheme(scheme), ...v1Schemes[name] },
      ]),
    ),
    // v0.3: requirement objects map a scheme name to its scopes.
    security: card.securityRequirements.map((r) =>
      Object.fromEntries(Object.entries(r.schemes).map(([name, s]) => [name, s.list]))
    ),
    protocolVersion: "0.3.0",
    url: endpoint,
    preferredTransport: "JSONRPC",
    additionalInterfaces: [{ url: endpoint, transport: "JSONRPC" }],
    supportsAuthenticatedExtendedCard: false,
  };
}

/** A security scheme in v0.3's OpenAPI-like form (`type` and its fields). */
function v03Scheme(s: SecurityScheme): Record<string, unknown> {
  const scheme = s.scheme;
  switch (scheme?.$case) {
    case "httpAuthSecurityScheme":
      return {
        type: "http",
        scheme: scheme.value.scheme.toLowerCase(),
        bearerFormat: scheme.value.bearerFormat,
        description: scheme.value.description,
      };
    case "oauth2SecurityScheme": {
      const flow = scheme.value.flows?.flow;
      const code = flow?.$case === "authorizationCode" ? flow.value : null;
      return {
        type: "oauth2",
        description: scheme.value.description,
        oauth2MetadataUrl: scheme.value.oauth2MetadataUrl,
        flows: code
          ? {
            authorizationCode: {
              authorizationUrl: code.authorizationUrl,
              tokenUrl: code.tokenUrl,
              refreshUrl: code.refreshUrl,
              scopes: code.scopes,
            },
          }
          : {},
      };
    }
    default:
      throw new Error(`No v0.3 form for security scheme ${scheme?.$case}`);
  }
}

/** The SDK AgentCard for `publisher`. */
export function agentCard(config: Pick<Config, "baseUrl">, publisher: Publisher): AgentCard {
  const urls = publisherUrls(config, publisher);
  const requireAuth = !openToAnonymous(publisher, "a2a");
  const buyerKey = { schemes: { buyerKey: { list: [] } } };
  const oauth = { schemes: { oauth: { list: [] } } };
  // Alternatives (OR): without Require auth an empty requirement makes credentials optional.
  const requirements: SecurityRequirement[] = requireAuth
    ? [buyerKey, oauth]
    : [{ schemes: {} }, buyerKey];
  return {
    name: publisher.name,
    description: publisher.description ||
      `Licensed articles from ${publisher.name} through Folio: search the catalog and read articles under the publisher's license.`,
    supportedInterfaces: [
      { url: urls.a2a, protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "" },
      { url: urls.a2a, protocolBinding: "JSONRPC", protocolVersion: "0.3", tenant: "" },
    ],
    provider: { organization: "Folio", url: config.baseUrl },
    version: "1.0.0",
    documentationUrl: urls.terms,
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: {
      buyerKey: {
        scheme: {
          $case: "httpAuthSecurityScheme",
          value: {
            scheme: "Bearer",
            bearerFormat: "mk_ buyer API key",
            description:
              `A Folio buyer key (POST ${config.baseUrl}/api/marketplace/signup): reads are licensed and metered to the buyer's monthly statement.`,
          },
        },
      },
      ...(requireAuth
        ? {
          oauth: {
            scheme: {
              $case: "oauth2SecurityScheme" as const,
              value: {
                description:
                  "An OAuth 2.1 access token issued for this publisher's MCP server (RFC 8707); the same publisher's A2A server accepts it.",
                oauth2MetadataUrl: `${config.baseUrl}/.well-known/oauth-authorization-server`,
                flows: {
                  flow: {
                    $case: "authorizationCode" as const,
                    value: {
                      authorizationUrl: `${config.baseUrl}/api/oauth/authorize`,
                      tokenUrl: `${config.baseUrl}/api/oauth/token`,
                      refreshUrl: `${config.baseUrl}/api/oauth/token`,
                      scopes: {},
                      pkceRequired: true,
                    },
                  },
                },
              },
            },
          },
        }
        : {}),
    },
    securityRequirements: requirements,
    defaultInputModes: MODES,
    defaultOutputModes: MODES,
    skills: [
      {
        id: "search_articles",
        name: "Search articles",
        description:
          `Searches ${publisher.name}'s catalog (hybrid full-text and semantic). Send a text message, or a data part {"skill":"search_articles","query":"...","limit":${L.limit.default}} (query 1 to ${L.queryMax} characters, limit ${L.limit.min} to ${L.limit.max}). The artifact lists id, url, title, author, publishedAt, summary, tags.`,
        tags: ["search", "articles", publisher.slug],
        examples: [
          "renewable energy policy",
          '{"skill":"search_articles","query":"renewable energy policy","limit":5}',
        ],
        inputModes: MODES,
        outputModes: MODES,
        securityRequirements: [],
      },
      {
        id: "get_article",
        name: "Get article",
        description:
          `Reads one article by id or URL under ${publisher.name}'s license: the full body with its license block, the summary only (license_limited: cite the URL), or a rejected/auth-required task saying why. Send a data part {"skill":"get_article","url_or_id":"...","last_user_prompt":"..."}; last_user_prompt is the end user's latest prompt, verbatim (up to ${L.promptMax} characters).`,
        tags: ["article", "license", publisher.slug],
        examples: [
          '{"skill":"get_article","url_or_id":"<article id or URL from search_articles>","last_user_prompt":"What changed in the new policy?"}',
        ],
        inputModes: MODES,
        outputModes: MODES,
        securityRequirements: [],
      },
    ],
    signatures: [],
    iconUrl: publisher.branding.logoUrl ?? undefined,
  };
}
