/**
 * How each API's part of the OpenAPI document is written: operations named by their zod schemas
 * (`z.toJSONSchema`, JSON Schema 2020-12, which is OpenAPI 3.1's schema dialect) and turned into
 * OpenAPI operations here, one way for every API (server/surfaces/openapi/document.ts puts them together).
 */
import { z } from "zod";

/** A JSON object of the document. */
export type Json = Record<string, unknown>;

/**
 * One answer: status, its body (a zod schema for JSON, a content map for other media types, null
 * for none) and what it means.
 */
export type Reply = [status: number, body: z.ZodType | Json | null, description?: string];

/** One operation, as each API writes it. */
export interface Operation {
  summary: string;
  description?: string;
  /** The API's credentials are required (`Api.auth`). */
  auth?: boolean;
  /** Other security than the API's (e.g. a public route that takes an optional key). */
  security?: Json[];
  body?: z.ZodType | Json;
  /** The body may be left out (every field of it is optional). */
  bodyOptional?: boolean;
  /** An example JSON body (the reference's curl example uses it). */
  example?: unknown;
  params?: Json[];
  ok: Reply;
  /** Other answers with a body of their own (outcomes, the other success status). */
  also?: Reply[];
  /** Response headers of the successful answers. */
  headers?: Json;
  /** Statuses answered with the API's error body. */
  errors?: number[];
  /** Where the operation is served, when not on the document's server. */
  servers?: Json[];
  /** Documented from an agreed contract before its route is served here: why. */
  pending?: string;
}

/** Operations by path, then by lower-case method. */
export type Paths = Record<string, Record<string, Operation>>;

/** One API of the document: its tag, what its credentials and errors look like, its paths. */
export interface Api {
  tag: string;
  description: string;
  /** The security requirement of `auth: true` operations, and the statuses it adds. */
  auth: { security: Json[]; errors: number[] };
  /** The meaning of each error status on this API. */
  errors: Record<number, string>;
  /** The component schema of this API's error body. */
  errorSchema: string;
  paths: Paths;
}

/** A query parameter, optional unless said. */
export function query(name: string, schema: Json, required = false): Json {
  return { name, in: "query", required, schema };
}

/** The `month` query parameter of statements, items and payouts. */
export const MONTH_PARAM = query("month", {
  type: "string",
  pattern: "^\\d{4}-(0[1-9]|1[0-2])$",
  description: "YYYY-MM (UTC); default: the current month",
});

/** One query parameter per property of the zod schema a route parses its query with. */
export function queryParamsOf(schema: z.ZodType): Json[] {
  const { properties } = schemaOf(schema, "input") as { properties: Record<string, Json> };
  return Object.entries(properties).map(([name, s]) => query(name, s));
}

/** A path parameter. */
export function pathParam(name: string, description?: string): Json {
  return {
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
    ...(description ? { description } : {}),
  };
}

/** The JSON Schema of a zod schema, as a request (`input`) or an answer (`output`) reads it. */
export function schemaOf(schema: z.ZodType, mode: "input" | "output"): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: mode, unrepresentable: "any" });
  return rest;
}

/** The API's paths as OpenAPI path items, every operation tagged with the API. */
export function pathItems(api: Api): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(api.paths).map(([path, ops]) => [
      path,
      Object.fromEntries(
        Object.entries(ops).map(([method, op]) => [method, operation(api, op, method, path)]),
      ),
    ]),
  );
}

/** One documented answer of an operation: its status, its body and what it means. */
export interface Answer {
  status: number;
  /** A zod schema (JSON), a content map (other media types), null (no body). */
  body: z.ZodType | Json | null;
  description: string;
  /** The body is the API's error body (`Api.errorSchema`). */
  error: boolean;
}

/**
 * Every answer an operation is documented with: its own (ok, also), then the API's error body
 * for its error statuses and, when authenticated, the credential refusals.
 */
export function answersOf(api: Api, op: Operation): Answer[] {
  const own = [op.ok, ...(op.also ?? [])].map(([status, body, description]) => ({
    status,
    body,
    description: description ?? "OK",
    error: false,
  }));
  const errors = new Set([...(op.auth ? api.auth.errors : []), ...(op.errors ?? [])]);
  return [
    ...own,
    ...[...errors].sort().map((status) => ({
      status,
      body: null,
      description: api.errors[status],
      error: true,
    })),
  ];
}

/**
 * A stable operationId from the method and path, as code generators name operations:
 * `GET /api/v1/articles/{id}` is `getV1ArticlesById`. Paths are unique per method, so ids are.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path.replace(/^\/api\//, "/").split(/[\/._-]+/).filter(Boolean).map((w) => {
    const param = /^\{(\w+)\}$/.exec(w);
    return param ? `By${capital(param[1])}` : capital(w.replace(/\W/g, ""));
  });
  return method.toLowerCase() + words.join("");
}

function capital(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1);
}

function operation(api: Api, op: Operation, method: string, path: string): Json {
  const responses: Json = {};
  for (const { status, body, description, error } of answersOf(api, op)) {
    const ref = { $ref: `#/components/schemas/${api.errorSchema}` };
    responses[status] = error
      ? { description, content: { "application/json": { schema: ref } } }
      : {
        description,
        ...(status < 300 && op.headers ? { headers: op.headers } : {}),
        ...(body ? { content: content(body, "output") } : {}),
      };
  }
  // A public operation says so (`[]`): without it the document's reader cannot tell.
  const security = op.security ?? (op.auth ? api.auth.security : []);
  return {
    operationId: operationIdOf(method, path),
    tags: [api.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    security,
    ...(op.servers ? { servers: op.servers } : {}),
    ...(op.params ? { parameters: op.params } : {}),
    ...(op.body ? { requestBody: requestBody(op) } : {}),
    responses,
    ...(op.pending ? { "x-folio-pending": op.pending } : {}),
  };
}

function requestBody(op: Operation): Json {
  return { required: !op.bodyOptional, content: content(op.body!, "input", op.example) };
}

function content(body: z.ZodType | Json, mode: "input" | "output", example?: unknown): Json {
  if (!(body instanceof z.ZodType)) return body;
  const schema = schemaOf(body, mode);
  return { "application/json": example === undefined ? { schema } : { schema, example } };
}
