/**
 * The v0.3 form of the agent card (A2A v0.3 §5.5), translated field by field from the v1.0 one
 * the way the SDK's own card handler does (`toCompatAgentCard` in @a2a-js/sdk 1.3.0): one `url`
 * with `preferredTransport`, a card-level `protocolVersion`, OpenAPI-like security schemes, and
 * requirements as name → scopes maps. It carries no v1.0 field.
 */
import type { AgentCard, SecurityRequirement, SecurityScheme } from "@a2a-js/sdk";

/** The v0.3 card JSON for the SDK (v1.0) `card`, served on its v0.3 interface. */
export function v03Card(card: AgentCard): Record<string, unknown> {
  const endpoint = card.supportedInterfaces.find((i) => i.protocolVersion === "0.3")!.url;
  return dropUndefined({
    name: card.name,
    description: card.description,
    version: card.version,
    protocolVersion: "0.3.0",
    url: endpoint,
    preferredTransport: "JSONRPC",
    additionalInterfaces: [{ url: endpoint, transport: "JSONRPC" }],
    provider: card.provider,
    documentationUrl: card.documentationUrl,
    iconUrl: card.iconUrl,
    capabilities: {
      streaming: card.capabilities?.streaming,
      pushNotifications: card.capabilities?.pushNotifications,
    },
    supportsAuthenticatedExtendedCard: card.capabilities?.extendedAgentCard ?? false,
    securitySchemes: Object.fromEntries(
      Object.entries(card.securitySchemes).map(([name, scheme]) => [name, v03Scheme(scheme)]),
    ),
    security: v03Requirements(card.securityRequirements),
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map((s) =>
      dropUndefined({
        id: s.id,
        name: s.name,
        description: s.description,
        tags: s.tags,
        examples: s.examples,
        inputModes: s.inputModes,
        outputModes: s.outputModes,
        security: s.securityRequirements.length
          ? v03Requirements(s.securityRequirements)
          : undefined,
      })
    ),
  });
}

/** v0.3 requirement objects map a scheme name to its scopes. */
function v03Requirements(rs: SecurityRequirement[]): Record<string, string[]>[] {
  return rs.map((r) => Object.fromEntries(Object.entries(r.schemes).map(([n, s]) => [n, s.list])));
}

/** `o` without its undefined members, so the JSON has no key the card does not set. */
function dropUndefined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** A security scheme in v0.3's OpenAPI-like form (`type` and its fields). */
function v03Scheme(s: SecurityScheme): Record<string, unknown> {
  const scheme = s.scheme;
  switch (scheme?.$case) {
    case "httpAuthSecurityScheme":
      return dropUndefined({
        type: "http",
        scheme: scheme.value.scheme.toLowerCase(),
        bearerFormat: scheme.value.bearerFormat,
        description: scheme.value.description,
      });
    case "oauth2SecurityScheme": {
      const flow = scheme.value.flows?.flow;
      const code = flow?.$case === "authorizationCode" ? flow.value : null;
      return dropUndefined({
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
      });
    }
    default:
      throw new Error(`No v0.3 form for security scheme ${scheme?.$case}`);
  }
}
