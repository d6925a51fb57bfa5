/**
 * GET /api/openapi.json: one OpenAPI 3.1 document of the publisher management API, the buyer
 * marketplace API and the publisher REST read API, generated from the zod schemas their routes
 * parse with, so the document and the validation cannot disagree. The human reference at /docs
 * (server/surfaces/openapi/reference.ts) is rendered from it.
 */
import { Hono } from "hono";
import type { z } from "zod";
import type { Config } from "../../platform/config.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { errorSchema } from "../manage/openapi_schemas.ts";
import { restErrorSchema } from "../rest/schemas.ts";
import { type Api, type Json, pathItems, schemaOf } from "./kit.ts";
import { manageApi } from "./manage.ts";
import { gateApi } from "./gate.ts";
import { marketplaceApi } from "./marketplace.ts";
import { platformApi } from "./platform.ts";
import { restApi } from "./rest.ts";
import { operatorApi } from "./operator.ts";

let cached: { baseUrl: string; doc: Json } | null = null;

/** GET /api/openapi.json. */
export function openApiRoutes(deps: Pick<AppDeps, "config">): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/", (c) => c.json(openApiDocument(deps.config)));
  return app;
}

/** The document, built once per base URL. */
export function openApiDocument(config: Pick<Config, "baseUrl">): Json {
  if (cached?.baseUrl !== config.baseUrl) {
    cached = { baseUrl: config.baseUrl, doc: build(config.baseUrl) };
  }
  return cached.doc;
}

/** This document itself, and nothing else, under the tag Reference. */
const reference: Api = {
  tag: "Reference",
  description: "This document; the same, for people, at /docs.",
  auth: { security: [], errors: [] },
  errors: {},
  errorSchema: "Error",
  paths: {
    "/api/openapi.json": {
      get: {
        summary: "This OpenAPI document",
        ok: [200, { "application/json": { schema: { type: "object" } } }, "OpenAPI 3.1 document"],
      },
    },
  },
};

/** The error body of each API, by the component name its `errorSchema` gives. */
export const ERROR_BODIES: Record<string, z.ZodType> = {
  Error: errorSchema,
  RestError: restErrorSchema,
};

/** The APIs the document describes, in its order (tests/fixtures/documented.ts checks answers). */
export function documentedApis(baseUrl: string): Api[] {
  return [
    marketplaceApi(),
    restApi(baseUrl),
    manageApi(),
    gateApi(),
    operatorApi(),
    platformApi(),
    reference,
  ];
}

function build(baseUrl: string): Json {
  const apis = documentedApis(baseUrl);
  return {
    openapi: "3.1.0",
    info: {
      title: "Folio API",
      version: "1.0.0",
      description: "Folio's HTTP APIs: the buyer marketplace (accounts, licenses, usage, " +
        "statements), each publisher's REST read API, and the publisher management API behind " +
        "the console. The marketplace and management APIs answer errors as " +
        '{"error": {"code", "message"}}; the REST API as {"status", "message"}. Operations ' +
        'marked "x-folio-pending" are documented from an agreed contract before this build ' +
        "serves them.",
    },
    servers: [{ url: baseUrl }],
    tags: apis.map((api) => ({ name: api.tag, description: api.description })),
    components: {
      schemas: Object.fromEntries(
        Object.entries(ERROR_BODIES).map(([name, schema]) => [name, schemaOf(schema, "output")]),
      ),
      securitySchemes: {
        buyerKey: { type: "http", scheme: "bearer", description: "Buyer key, mk_..." },
        buyerSession: {
          type: "apiKey",
          in: "cookie",
          name: "folio_buyer_session",
          description: "The buyer portal's session, from POST /api/marketplace/session",
        },
        publisherKey: { type: "http", scheme: "bearer", description: "Publisher key, pk_..." },
        publisherSession: {
          type: "apiKey",
          in: "cookie",
          name: "folio_session",
          description: "The console session, from POST /api/publishers/login",
        },
        operatorKey: { type: "http", scheme: "bearer", description: "Operator key, opk_..." },
        operatorSession: {
          type: "apiKey",
          in: "cookie",
          name: "folio_operator_session",
          description: "The operator console's session, from POST /api/operator/login and a " +
            "second factor",
        },
        csrf: {
          type: "apiKey",
          in: "header",
          name: "X-CSRF-Token",
          description: "With a session cookie: the session's csrfToken, required on POST, PUT, " +
            "PATCH and DELETE",
        },
      },
    },
    paths: Object.assign({}, ...apis.map(pathItems)),
  };
}
