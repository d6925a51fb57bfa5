/**
 * The publisher REST API's part of the OpenAPI document (docs/SPEC.md "Publisher REST API",
 * "Errors"): its parameters are the shared read inputs the routes parse with
 * (server/domain/reads/inputs.ts), its answers server/surfaces/rest/schemas.ts. Every route exists twice: on the
 * publisher's custom domain, and under /api/v1/publishers/{publisherId} on the platform host.
 */
import { z } from "zod";
import * as inputs from "../../domain/reads/inputs.ts";
import * as r from "../rest/schemas.ts";
import { type Api, type Json, type Operation, pathParam, schemaOf } from "./kit.ts";

const ERRORS: Record<number, string> = {
  400: "invalid_request (the message names the parameter) or missing_last_user_prompt",
  401: "invalid_api_key: the buyer key is malformed, unknown or revoked, or sent in the URL",
  404: "article_not_found, rest_api_disabled (anonymous REST is off: send a buyer key), " +
    "unknown_publisher_host or unknown_publisher",
  409: "idempotency_key_reused: the Idempotency-Key was used for a different read",
};

const PUBLISHER_ID = { ...pathParam("publisherId", "The publisher's id"), example: "pub_demo" };

/** The REST read API; `baseUrl` gives the port a publisher's custom domain is served on. */
export function restApi(baseUrl: string): Api {
  const base = new URL(baseUrl);
  const onDomain = [{
    url: `${base.protocol}//{publisherHost}`,
    description: "The publisher's custom domain",
    variables: { publisherHost: { default: `demo.localhost${base.port ? `:${base.port}` : ""}` } },
  }];
  const param = (name: string, schema: z.ZodType, required: boolean, example?: unknown): Json => ({
    name,
    in: "query",
    required,
    schema: schemaOf(schema, "input"),
    ...(example === undefined ? {} : { example }),
  });
  const searchParams = [
    param("query", inputs.query, false, "warming homes without gas"),
    { ...param("q", inputs.query, false), description: "Alias of query" },
    param("limit", inputs.limit, false, 3),
  ];
  const search: Operation = {
    summary: "Search the publisher's articles",
    description: "Semantic and full-text search fused by reciprocal rank; `query` (or `q`) is " +
      "required. Articles whose license denies rag are left out entirely, as are articles the " +
      "caller may not see (BLOCKED, other territories). Searching is free. Hits withheld in " +
      "the caller's region are counted in `withheld`; when a territory rule withholds " +
      "everything the query could reach, the answer is 451 territory_blocked.",
    params: searchParams,
    ok: [200, r.searchResponseSchema],
    also: [[
      451,
      r.territoryBlockedSchema,
      "territory_blocked: every hit withheld in the requester's region",
    ]],
    errors: [400, 401, 404],
  };
  const passages: Operation = {
    summary: "Retrieve the passages that best answer a query (RAG)",
    description: "Each article used is one rag read: charged at the publisher's rag price for " +
      "a buyer without a rag license, or counted against the paywall meter for an anonymous " +
      "caller. last_user_prompt, when given, is recorded as a reader intent. Territory " +
      "withholding is answered as search answers it (`withheld`, or 451 territory_blocked). " +
      "With an Idempotency-Key, each article's read is keyed `<key>#<articleId>`: a retried " +
      "request is not billed again.",
    params: [
      ...searchParams,
      param("last_user_prompt", inputs.lastUserPrompt, false),
      {
        name: "Idempotency-Key",
        in: "header",
        required: false,
        description: "A new key per request, the same key on a retry (1 to 255 visible ASCII " +
          "characters; otherwise 400 invalid_idempotency_key).",
        schema: { type: "string", maxLength: 255, examples: ["passages-2f9c41d8"] },
      },
    ],
    headers: {
      "Folio-Receipt": {
        description: "When articles were charged: their signed receipts (compact JWS), " +
          "comma-separated, as in the body's `charges`",
        schema: { type: "string" },
      },
    },
    ok: [200, r.passagesResponseSchema],
    also: [[
      451,
      r.territoryBlockedSchema,
      "territory_blocked: every passage withheld in the requester's region",
    ]],
    errors: [400, 401, 404],
  };
  const article: Operation = {
    summary: "Read one article, with its license block",
    description: "What the access decision allows: the full body (200), the summary only " +
      "(200 license_limited: a summarization-only license, or the metered cap or a budget " +
      "reached), blocked for AI agents (200 blocked), 402 payment_required (an anonymous " +
      "caller past the paywall meter), 403 license_denied, 451 territory_blocked. A buyer " +
      "reading a PAYWALL article without a license covering display is charged its price; " +
      "send an Idempotency-Key so a retried read is not billed twice.",
    params: [
      pathParam("idOrUrl", "The article's id, or its URL (percent-encoded or raw)"),
      param("last_user_prompt", inputs.lastUserPrompt, true, "What does it say about heat pumps?"),
      {
        name: "Idempotency-Key",
        in: "header",
        required: false,
        description: "A new key per read, the same key on a retry: a retried read with the " +
          "same key is charged once (the answer still names the charge); the key reused for " +
          "another article is 409; a key that is not 1 to 255 visible ASCII characters is 400 " +
          "invalid_idempotency_key. Every read without a key is billed (no dedupe window).",
        schema: { type: "string", maxLength: 255, examples: ["read-2f9c41d8"] },
      },
      {
        name: "PAYMENT-SIGNATURE",
        in: "header",
        required: false,
        description: "x402 v2 (when the operator configured it): an anonymous caller's payment " +
          "for this read, the base64 JSON PaymentPayload answering a 402's PAYMENT-REQUIRED " +
          "(exact scheme, EIP-3009). Verified and settled through the facilitator before the " +
          "read is charged to the payer's own account; a refusal is 402 with PAYMENT-REQUIRED " +
          "naming why (docs/decisions/x402.md).",
        schema: { type: "string" },
      },
    ],
    ok: [
      200,
      z.union([r.articleFullSchema, r.licenseLimitedSchema, r.blockedSchema]),
      "The article, the summary only (license_limited) or blocked",
    ],
    headers: {
      "Folio-Charged-Usd-Cents": {
        description: "On a charged read: what this read costs the buyer in US cents (also on " +
          "a retry with the same Idempotency-Key, which is not charged again)",
        schema: { type: "number" },
      },
      "Folio-Receipt": {
        description: "On a charged read (and its retry): the signed receipt, a compact JWS " +
          "(EdDSA, Ed25519) over the charge item, verifiable against /.well-known/jwks.json",
        schema: { type: "string" },
      },
      "Folio-Budget-Remaining-Usd-Cents": {
        description: "On a charged read by a buyer with a budget: what is left of it this month",
        schema: { type: "number" },
      },
      "PAYMENT-RESPONSE": {
        description: "On a read paid with PAYMENT-SIGNATURE: the x402 settlement (base64 JSON " +
          "SettleResponse: success, transaction, network, payer)",
        schema: { type: "string" },
      },
    },
    also: [
      [
        402,
        r.paymentSchemas,
        "payment_required: the free reads this month are used (with x402 configured, " +
        "PAYMENT-REQUIRED says how to pay this read on chain); payment_overdue: the buyer is " +
        "suspended for an overdue invoice (free articles still read)",
      ],
      [403, r.licenseDeniedSchema, "license_denied: no AI use licensed"],
      [451, r.territoryBlockedSchema, "territory_blocked: not in the requester's region"],
    ],
    errors: [400, 401, 404, 409],
  };
  // On the custom domain anonymous callers are welcome when the publisher turned public REST on.
  const onDomainOp = (op: Operation): Operation => ({
    ...op,
    servers: onDomain,
    security: [{}, { buyerKey: [] }],
  });
  const onPlatform = (op: Operation): Operation => ({
    ...op,
    auth: true,
    params: [PUBLISHER_ID, ...op.params ?? []],
  });
  return {
    tag: "Articles (REST)",
    description: "Each publisher's articles over plain HTTP: on its custom domain " +
      "(anonymous when the publisher enables public REST; always with a buyer key), or " +
      "under /api/v1/publishers/{publisherId} on the platform host with a buyer key. Errors " +
      "are {status, message}. CORS-open.",
    auth: { security: [{ buyerKey: [] }], errors: [401] },
    errors: ERRORS,
    errorSchema: "RestError",
    paths: {
      "/api/v1/articles/search": { get: onDomainOp(search) },
      "/api/v1/passages/search": { get: onDomainOp(passages) },
      "/api/v1/articles/{idOrUrl}": { get: onDomainOp(article) },
      "/api/v1/publishers/{publisherId}/articles/search": { get: onPlatform(search) },
      "/api/v1/publishers/{publisherId}/passages/search": { get: onPlatform(passages) },
      "/api/v1/publishers/{publisherId}/articles/{idOrUrl}": { get: onPlatform(article) },
    },
  };
}
