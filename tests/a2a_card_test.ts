/**
 * The agent card, one form per A2A version, each checked against a strict schema (unknown fields
 * refused). v1.0: the AgentCard message of a2a.proto v1.0 in ProtoJSON, field for field as the
 * SDK's generated types (@a2a-js/sdk 1.3.0 `AgentCard`, `SecurityScheme` one-of members). v0.3:
 * the JSON schema types the SDK ships for it (compat/v0_3 `AgentCard`, OpenAPI-like schemes).
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { patchDemo } from "./fixtures/demo.ts";
import { json, startTestFolio } from "./helpers.ts";

const strings = z.array(z.string());
const provider = z.strictObject({ organization: z.string(), url: z.string() });

// ProtoJSON leaves out empty lists and maps: `{}` is the empty requirement.
const v1Requirement = z.strictObject({
  schemes: z.record(z.string(), z.strictObject({ list: strings.optional() })).optional(),
});
const v1Scheme = z.union([
  z.strictObject({
    httpAuthSecurityScheme: z.strictObject({
      description: z.string().optional(),
      scheme: z.string(),
      bearerFormat: z.string().optional(),
    }),
  }),
  z.strictObject({
    oauth2SecurityScheme: z.strictObject({
      description: z.string().optional(),
      oauth2MetadataUrl: z.string().optional(),
      flows: z.strictObject({
        authorizationCode: z.strictObject({
          authorizationUrl: z.string(),
          tokenUrl: z.string(),
          refreshUrl: z.string().optional(),
          scopes: z.record(z.string(), z.string()).optional(),
          pkceRequired: z.boolean().optional(),
        }),
      }),
    }),
  }),
]);
const V1_CARD = z.strictObject({
  name: z.string(),
  description: z.string(),
  supportedInterfaces: z.array(z.strictObject({
    url: z.string(),
    protocolBinding: z.string(),
    tenant: z.string().optional(),
    protocolVersion: z.string(),
  })).min(1),
  provider: provider.optional(),
  version: z.string(),
  documentationUrl: z.string().optional(),
  capabilities: z.strictObject({
    streaming: z.boolean().optional(),
    pushNotifications: z.boolean().optional(),
    extensions: z.array(z.unknown()).optional(),
    extendedAgentCard: z.boolean().optional(),
  }),
  securitySchemes: z.record(z.string(), v1Scheme).optional(),
  securityRequirements: z.array(v1Requirement).optional(),
  defaultInputModes: strings,
  defaultOutputModes: strings,
  skills: z.array(z.strictObject({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    tags: strings,
    examples: strings.optional(),
    inputModes: strings.optional(),
    outputModes: strings.optional(),
    securityRequirements: z.array(v1Requirement).optional(),
  })),
  signatures: z.array(z.unknown()).optional(),
  iconUrl: z.string().optional(),
});

const v03Security = z.array(z.record(z.string(), strings));
const V03_CARD = z.strictObject({
  name: z.string(),
  description: z.string(),
  version: z.string(),
  protocolVersion: z.string(),
  url: z.string(),
  preferredTransport: z.string().optional(),
  additionalInterfaces: z.array(z.strictObject({ url: z.string(), transport: z.string() }))
    .optional(),
  provider: provider.optional(),
  documentationUrl: z.string().optional(),
  iconUrl: z.string().optional(),
  capabilities: z.strictObject({
    streaming: z.boolean().optional(),
    pushNotifications: z.boolean().optional(),
    stateTransitionHistory: z.boolean().optional(),
    extensions: z.array(z.unknown()).optional(),
  }),
  supportsAuthenticatedExtendedCard: z.boolean().optional(),
  securitySchemes: z.record(
    z.string(),
    z.union([
      z.strictObject({
        type: z.literal("http"),
        scheme: z.string(),
        bearerFormat: z.string().optional(),
        description: z.string().optional(),
      }),
      z.strictObject({
        type: z.literal("oauth2"),
        description: z.string().optional(),
        oauth2MetadataUrl: z.string().optional(),
        flows: z.strictObject({
          authorizationCode: z.strictObject({
            authorizationUrl: z.string(),
            tokenUrl: z.string(),
            refreshUrl: z.string().optional(),
            scopes: z.record(z.string(), z.string()),
          }),
        }),
      }),
    ]),
  ).optional(),
  security: v03Security.optional(),
  defaultInputModes: strings,
  defaultOutputModes: strings,
  skills: z.array(z.strictObject({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    tags: strings,
    examples: strings.optional(),
    inputModes: strings.optional(),
    outputModes: strings.optional(),
    security: v03Security.optional(),
  })),
  signatures: z.array(z.unknown()).optional(),
});

type Folio = Awaited<ReturnType<typeof startTestFolio>>;

async function card(folio: Folio, headers: Record<string, string>, query = "") {
  const res = await folio.request(`/.well-known/agent-card.json${query}`, {
    host: "demo.localhost",
    headers,
  });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("vary"), "A2A-Version");
  return await json(res);
}

Deno.test("each version's card passes its strict schema, open and behind Require auth", async () => {
  await using folio = await startTestFolio();
  for (const requireAuth of [false, true]) {
    await patchDemo(folio, (p) => ({ ...p, toggles: { ...p.toggles, requireAuth } }));
    V1_CARD.parse(await card(folio, { "A2A-Version": "1.0" }));
    V03_CARD.parse(await card(folio, { "A2A-Version": "0.3" }));
  }
  // The schemas do refuse the other version's fields.
  const v1 = await card(folio, { "A2A-Version": "1.0" });
  assert.equal(V03_CARD.safeParse(v1).success, false);
  assert.equal(V1_CARD.safeParse({ ...v1, url: "x" }).success, false);
});

Deno.test("the card version follows A2A-Version, then ?version=; absent is 0.3, unknown the newest", async () => {
  await using folio = await startTestFolio();
  const is1 = (c: Record<string, unknown>) => "supportedInterfaces" in c && !("url" in c);
  const is03 = (c: Record<string, unknown>) => c.protocolVersion === "0.3.0" && !is1(c);
  assert.ok(is1(await card(folio, { "A2A-Version": "1.0" })));
  assert.ok(is1(await card(folio, { "A2A-Version": " 1 " })));
  assert.ok(is03(await card(folio, { "A2A-Version": "0.3" })));
  assert.ok(is03(await card(folio, { "A2A-Version": "0.3.0" })));
  // No version at all is a v0.3 client (A2A v1.0: an absent A2A-Version means 0.3).
  assert.ok(is03(await card(folio, {})));
  assert.ok(is1(await card(folio, {}, "?version=1.0")));
  assert.ok(is03(await card(folio, {}, "?version=0.3")));
  // The header wins over the query.
  assert.ok(is1(await card(folio, { "A2A-Version": "1.0" }, "?version=0.3")));
  // A version this server does not know gets the newest card.
  assert.ok(is1(await card(folio, { "A2A-Version": "2.0" })));
  assert.ok(is1(await card(folio, { "A2A-Version": "banana" })));
});

Deno.test("the card says per skill that anonymous callers may use it, and that ListTasks needs a key", async () => {
  await using folio = await startTestFolio();
  const v1 = await card(folio, { "A2A-Version": "1.0" });
  // deno-lint-ignore no-explicit-any
  for (const skill of v1.skills as any[]) {
    assert.deepEqual(skill.securityRequirements, [{}, { schemes: { buyerKey: {} } }]);
  }
  // deno-lint-ignore no-explicit-any
  const schemes = v1.securitySchemes as any;
  assert.match(schemes.buyerKey.httpAuthSecurityScheme.description, /ListTasks .* 401/);
  const v03 = await card(folio, { "A2A-Version": "0.3" });
  // deno-lint-ignore no-explicit-any
  for (const skill of v03.skills as any[]) assert.deepEqual(skill.security, [{}, { buyerKey: [] }]);
  await patchDemo(folio, (p) => ({ ...p, toggles: { ...p.toggles, requireAuth: true } }));
  const closed = await card(folio, { "A2A-Version": "0.3" });
  // deno-lint-ignore no-explicit-any
  for (const skill of closed.skills as any[]) {
    assert.deepEqual(skill.security, [{ buyerKey: [] }, { oauth: [] }]);
  }
});
