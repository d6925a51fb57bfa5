/**
 * A publisher's Agent Card (A2A v1.0 §4.4 and v0.3 §5.5; docs/SPEC.md "A2A server"), one form per
 * protocol version (docs/decisions/a2a.md "Agent card"): built as the SDK's v1.0 AgentCard and
 * serialised with its ProtoJSON writer, or translated field by field into v0.3's shape (`url`,
 * `preferredTransport`, `protocolVersion`, OpenAPI-like security schemes, `security`). Neither form
 * carries the other's fields, so each passes its version's strict schema. Only public facts go in.
 */
import { AgentCard, type SecurityRequirement } from "@a2a-js/sdk";
import type { Publisher } from "../../../store/publishers.ts";
import type { Config } from "../../platform/config.ts";
import { openToAnonymous } from "../../domain/licensing/reach.ts";
import { READ_LIMITS as L } from "../../domain/reads/inputs.ts";
import { publisherUrls } from "../../platform/urls.ts";
import { v03Card } from "./card_v03.ts";

const MODES = ["text/plain", "application/json"];

/** The card versions served; 1.0 is the newest. */
export type CardVersion = "1.0" | "0.3";

/**
 * The card version a request asked for: its `A2A-Version` header, else `?version=`. An absent
 * version means 0.3 (A2A v1.0 service parameters; the SDK's ABSENT_HEADER_VERSION), since v0.3
 * clients send no header; 0.x means 0.3; anything else, unknown or unparseable, gets the newest,
 * as the SDK's own card handler does (a card request has no JSON-RPC error to answer with).
 */
export function cardVersion(header: string | undefined, query?: string): CardVersion {
  const asked = (header ?? "").trim() || (query ?? "").trim();
  if (asked === "") return "0.3";
  return /^0(\.\d+){0,2}$/.test(asked) ? "0.3" : "1.0";
}

/** The card as JSON for `publisher`, in the form of `version` alone. */
export function agentCardJson(
  config: Pick<Config, "baseUrl">,
  publisher: Publisher,
  version: CardVersion = "1.0",
): Record<string, unknown> {
  const card = agentCard(config, publisher);
  if (version === "1.0") return AgentCard.toJSON(card) as Record<string, unknown>;
  return v03Card(card);
}

/** The SDK AgentCard for `publisher`. */
export function agentCard(config: Pick<Config, "baseUrl">, publisher: Publisher): AgentCard {
  const urls = publisherUrls(config, publisher);
  const requireAuth = !openToAnonymous(publisher, "a2a");
  const buyerKey = { schemes: { buyerKey: { list: [] } } };
  const oauth = { schemes: { oauth: { list: [] } } };
  // Alternatives (OR): without Require auth an empty requirement makes credentials optional.
  // Each skill repeats it, so what an anonymous caller may do is stated per skill (v1.0
  // AgentSkill.security_requirements, v0.3 AgentSkill.security).
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
              `A Folio buyer key (POST ${config.baseUrl}/api/marketplace/signup): reads are licensed and metered to the buyer's monthly statement. ListTasks lists the caller's own tasks, so it needs a credential (this key, or an OAuth token where offered): anonymous, it answers 401.`,
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
        securityRequirements: requirements,
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
        securityRequirements: requirements,
      },
    ],
    signatures: [],
    iconUrl: publisher.branding.logoUrl ?? undefined,
  };
}
