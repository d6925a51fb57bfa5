/**
 * The human API reference (GET /docs) is read off the OpenAPI document: this module turns the
 * document into what the page shows (ui/api_docs.tsx), operation by operation: who may call it,
 * its parameters, its request and response bodies as field tables (nested objects, enums, limits)
 * and a curl example. Pure: the document in, the page's data out.
 */
import type { Json } from "./kit.ts";

/** One field of a body, flattened: `publishers[].rights.display`. */
export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  description: string;
  /** Enum values, bounds, lengths, defaults, patterns, in words. */
  rules: string[];
}

/** A request or response body: one table, or one per shape when it is one of several. */
export interface BodyView {
  mediaType: string;
  /** `closed`: a request body whose unknown fields are refused. */
  shapes: { label: string | null; fields: FieldRow[]; closed: boolean }[];
}

/** A parameter of an operation. */
export interface ParamView {
  name: string;
  in: string;
  required: boolean;
  type: string;
  description: string;
  rules: string[];
}

/** One answer of an operation. */
export interface ResponseView {
  status: string;
  description: string;
  headers: { name: string; type: string; description: string }[];
  body: BodyView | null;
}

/** One operation as the page shows it. */
export interface OperationView {
  anchor: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  /** Why the operation is documented before it is served, when it is. */
  pending: string | null;
  /** Each way to authenticate, in words; empty: none needed. */
  auth: string[];
  /** Callers without credentials are served too (e.g. public REST). */
  anonymous: boolean;
  /** Where it is served, when not on the platform origin. */
  server: string | null;
  params: ParamView[];
  body: (BodyView & { required: boolean }) | null;
  responses: ResponseView[];
  curl: string;
}

/** One API (tag) with its operations. */
export interface TagView {
  name: string;
  anchor: string;
  description: string;
  operations: OperationView[];
}

/** The whole reference. */
export interface ReferenceView {
  title: string;
  description: string;
  baseUrl: string;
  tags: TagView[];
}

const METHODS = ["get", "post", "put", "patch", "delete"];

/** What each security scheme asks of a caller, in words. */
const SCHEME_WORDS: Record<string, string> = {
  buyerKey: "Buyer key: Authorization: Bearer mk_...",
  buyerSession: "Buyer portal session cookie (folio_buyer_session)",
  publisherKey: "Publisher key: Authorization: Bearer pk_...",
  publisherSession: "Console session cookie (folio_session)",
  operatorKey: "Operator key: Authorization: Bearer opk_...",
  operatorSession: "Operator console session cookie (folio_operator_session)",
  csrf: "X-CSRF-Token on changes",
};

/** Shell variables the curl examples read, by security scheme. */
const SCHEME_CURL: Record<string, string> = {
  buyerKey: '-H "Authorization: Bearer $BUYER_KEY"',
  publisherKey: '-H "Authorization: Bearer $PUBLISHER_KEY"',
  buyerSession: '-b "folio_buyer_session=$BUYER_SESSION" -H "X-CSRF-Token: $CSRF_TOKEN"',
  publisherSession: '-b "folio_session=$PUBLISHER_SESSION" -H "X-CSRF-Token: $CSRF_TOKEN"',
  operatorKey: '-H "Authorization: Bearer $OPERATOR_KEY"',
  operatorSession: '-b "folio_operator_session=$OPERATOR_SESSION" -H "X-CSRF-Token: $CSRF_TOKEN"',
};

// JSON Schema's integer bounds zod writes for every int: not worth a word.
const SAFE_INTEGER = 9007199254740991;

/** The reference page's data, from the OpenAPI document. */
export function referenceOf(doc: Json): ReferenceView {
  const components = ((doc.components as Json)?.schemas ?? {}) as Record<string, Json>;
  const baseUrl = String(((doc.servers as Json[])?.[0])?.url ?? "");
  const tags = ((doc.tags ?? []) as Json[]).map((t) => ({
    name: String(t.name),
    anchor: slug(String(t.name)),
    description: String(t.description ?? ""),
    operations: [] as OperationView[],
  }));
  const byTag = new Map(tags.map((t) => [t.name, t]));
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const tagName = String((op.tags as string[] | undefined)?.[0] ?? "Other");
      let tag = byTag.get(tagName);
      if (!tag) {
        tag = { name: tagName, anchor: slug(tagName), description: "", operations: [] };
        tags.push(tag);
        byTag.set(tagName, tag);
      }
      tag.operations.push(operationView(method, path, op, { components, baseUrl }));
    }
  }
  const info = (doc.info ?? {}) as Json;
  return {
    title: String(info.title ?? "API reference"),
    description: String(info.description ?? ""),
    baseUrl,
    tags: tags.filter((t) => t.operations.length > 0),
  };
}

interface Ctx {
  components: Record<string, Json>;
  baseUrl: string;
  /** A request body: say which fields are required and that others are refused. */
  request?: boolean;
}

function operationView(method: string, path: string, op: Json, ctx: Ctx): OperationView {
  const security = (op.security ?? []) as Json[];
  const params = ((op.parameters ?? []) as Json[]).map((p) => paramView(p, ctx));
  const requestBody = op.requestBody as Json | undefined;
  const body = requestBody
    ? bodyView(requestBody.content as Json, { ...ctx, request: true })
    : null;
  const servers = op.servers as Json[] | undefined;
  const server = servers?.[0] ? serverUrl(servers[0]) : null;
  const responses = Object.entries((op.responses ?? {}) as Record<string, Json>).map((
    [status, r],
  ) => ({
    status,
    description: String(r.description ?? ""),
    headers: Object.entries((r.headers ?? {}) as Record<string, Json>).map(([name, h]) => ({
      name,
      type: typeOf(resolve(h.schema as Json, ctx), ctx),
      description: String(h.description ?? ""),
    })),
    body: r.content ? bodyView(r.content as Json, ctx) : null,
  }));
  return {
    anchor: slug(`${method} ${path}`),
    method: method.toUpperCase(),
    path,
    summary: String(op.summary ?? ""),
    description: String(op.description ?? ""),
    pending: typeof op["x-folio-pending"] === "string" ? op["x-folio-pending"] : null,
    auth: security.filter((s) => Object.keys(s).length > 0).map((s) =>
      Object.keys(s).map((k) => SCHEME_WORDS[k] ?? k).join(" + ")
    ),
    anonymous: security.length === 0 || security.some((s) => Object.keys(s).length === 0),
    server,
    params,
    body: body && requestBody ? { ...body, required: requestBody.required === true } : null,
    responses,
    curl: curlOf(method, path, op, { ...ctx, server }),
  };
}

function paramView(p: Json, ctx: Ctx): ParamView {
  const schema = resolve((p.schema ?? {}) as Json, ctx);
  const description = String(p.description ?? schema.description ?? "");
  return {
    name: String(p.name),
    in: String(p.in),
    required: p.required === true,
    type: typeOf(schema, ctx),
    description,
    rules: unsaid(rulesOf(schema, ctx), description),
  };
}

function bodyView(content: Json, ctx: Ctx): BodyView | null {
  const [mediaType, media] = Object.entries(content)[0] ?? [];
  if (!mediaType) return null;
  const schema = resolve(((media as Json).schema ?? {}) as Json, ctx);
  const shape = (s: Json, label: string | null) => ({
    label,
    fields: fieldsOf(s, "", ctx),
    closed: ctx.request === true && s.additionalProperties === false,
  });
  const variants = unionOf(schema);
  if (variants) {
    return {
      mediaType,
      shapes: variants.map((v, i) => shape(resolve(v, ctx), shapeLabel(resolve(v, ctx), i, ctx))),
    };
  }
  if (schema.type !== "object" && !schema.properties) {
    const description = String(schema.description ?? "");
    const row = {
      name: "(body)",
      type: typeOf(schema, ctx),
      required: true,
      description,
      rules: unsaid(rulesOf(schema, ctx), description),
    };
    return { mediaType, shapes: [{ label: null, fields: [row], closed: false }] };
  }
  return { mediaType, shapes: [shape(schema, null)] };
}

/** The rules a description does not already state. */
function unsaid(rules: string[], description: string): string[] {
  return rules.filter((r) => !description.includes(r));
}

/** The rows of an object's fields, nested objects and arrays of objects flattened under them. */
function fieldsOf(schema: Json, prefix: string, ctx: Ctx, depth = 0): FieldRow[] {
  const s = resolve(schema, ctx);
  const properties = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set((s.required ?? []) as string[]);
  const rows: FieldRow[] = [];
  for (const [key, raw] of Object.entries(properties)) {
    const name = `${prefix}${key}`;
    const prop = resolve(raw, ctx);
    const inner = withoutNull(prop, ctx);
    const description = String(prop.description ?? inner.description ?? "");
    const rules = inner !== prop && prop.default !== undefined
      ? [...rulesOf(inner, ctx), `default ${show(prop.default)}`]
      : rulesOf(inner, ctx);
    rows.push({
      name,
      type: typeOf(prop, ctx),
      required: required.has(key),
      description,
      rules: unsaid(rules, description),
    });
    if (depth >= 6) continue;
    rows.push(...childrenOf(inner, name, ctx, depth));
  }
  return rows;
}

function childrenOf(s: Json, name: string, ctx: Ctx, depth: number): FieldRow[] {
  if (s.type === "object" && s.properties) return fieldsOf(s, `${name}.`, ctx, depth + 1);
  if (s.type === "array" && s.items) {
    const item = withoutNull(resolve(s.items as Json, ctx), ctx);
    return childrenOf(item, `${name}[]`, ctx, depth);
  }
  const variants = unionOf(s);
  if (variants) {
    return variants.flatMap((v, i) => {
      const shape = resolve(v, ctx);
      if (shape.type !== "object") return [];
      return fieldsOf(shape, `${name} (${shapeLabel(shape, i, ctx)}).`, ctx, depth + 1);
    });
  }
  if (isRecord(s)) {
    const value = withoutNull(resolve(s.additionalProperties as Json, ctx), ctx);
    return childrenOf(value, `${name}.<key>`, ctx, depth);
  }
  return [];
}

/** A short type: `string (date-time)`, `array of object`, `integer or null`, `"active"`. */
function typeOf(schema: Json, ctx: Ctx): string {
  const s = resolve(schema, ctx);
  const variants = unionOf(s);
  if (variants) {
    const nonNull = variants.filter((v) => resolve(v, ctx).type !== "null");
    const nullable = nonNull.length < variants.length;
    const types = [...new Set(nonNull.map((v) => typeOf(v, ctx)))];
    const base = types.length === 1 ? types[0] : `one of ${types.join(", ")}`;
    return nullable ? `${base} or null` : base;
  }
  if (s.const !== undefined) return show(s.const);
  if (Array.isArray(s.type)) return (s.type as string[]).join(" or ");
  if (s.type === "array") {
    const item = s.items ? typeOf(s.items as Json, ctx) : "any";
    return `array of ${item}`;
  }
  if (isRecord(s)) return `map of ${typeOf(s.additionalProperties as Json, ctx)}`;
  if (s.type === "string" && (s.format || s.contentMediaType)) {
    return `string (${s.format ?? s.contentMediaType})`;
  }
  if (s.enum && !s.type) return "enum";
  return typeof s.type === "string" ? s.type : "any";
}

/** Limits and choices in words. */
function rulesOf(schema: Json, ctx: Ctx): string[] {
  const s = schema;
  const rules: string[] = [];
  if (Array.isArray(s.enum)) rules.push(`one of ${s.enum.map(show).join(", ")}`);
  const range = (min: unknown, max: unknown, unit: string) => {
    const lo = typeof min === "number" && Math.abs(min) !== SAFE_INTEGER ? min : null;
    const hi = typeof max === "number" && Math.abs(max) !== SAFE_INTEGER ? max : null;
    const of = (n: number) => n === 1 ? unit.replace(/s$/, "") : unit;
    if (lo !== null && hi !== null) rules.push(`${lo} to ${hi}${unit}`);
    else if (lo === 1 && unit) rules.push("not empty");
    else if (lo !== null) rules.push(`at least ${lo}${of(lo)}`);
    else if (hi !== null) rules.push(`at most ${hi}${of(hi)}`);
  };
  range(s.minimum, s.maximum, "");
  if (typeof s.exclusiveMinimum === "number") rules.push(`more than ${s.exclusiveMinimum}`);
  if (typeof s.exclusiveMaximum === "number") rules.push(`less than ${s.exclusiveMaximum}`);
  range(s.minLength, s.maxLength, " characters");
  range(s.minItems, s.maxItems, " items");
  if (typeof s.pattern === "string" && !s.format) rules.push(`pattern ${s.pattern}`);
  if (s.default !== undefined) rules.push(`default ${show(s.default)}`);
  if (ctx.request && s.additionalProperties === false && s.properties) {
    rules.push("other fields are refused");
  }
  return rules;
}

function shapeLabel(s: Json, i: number, ctx: Ctx): string {
  if (typeof s.description === "string") return s.description;
  const props = (s.properties ?? {}) as Record<string, Json>;
  for (const [key, p] of Object.entries(props)) {
    const v = resolve(p, ctx);
    if (v.const !== undefined) return `${key} = ${show(v.const)}`;
  }
  const keys = Object.keys(props);
  return keys.length ? `with ${keys.slice(0, 3).join(", ")}` : `shape ${i + 1}`;
}

function unionOf(s: Json): Json[] | null {
  const list = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  return Array.isArray(list) && list.length > 1 ? list : null;
}

/** `X or null` as X (for its fields and rules). */
function withoutNull(s: Json, ctx: Ctx): Json {
  const variants = unionOf(s);
  if (!variants) return s;
  const nonNull = variants.map((v) => resolve(v, ctx)).filter((v) => v.type !== "null");
  return nonNull.length === 1 ? { ...nonNull[0], description: s.description } : s;
}

function isRecord(s: Json): boolean {
  return s.type === "object" && !s.properties && typeof s.additionalProperties === "object";
}

function resolve(schema: Json | undefined, ctx: Ctx): Json {
  let s = schema ?? {};
  for (let i = 0; i < 5 && typeof s.$ref === "string"; i++) {
    s = ctx.components[String(s.$ref).split("/").at(-1)!] ?? {};
  }
  return s;
}

function serverUrl(server: Json): string {
  const variables = (server.variables ?? {}) as Record<string, Json>;
  return String(server.url).replace(/\{(\w+)\}/g, (_m, v) => String(variables[v]?.default ?? v));
}

// Examples.

/** A curl command that runs the operation, with keys and ids taken from shell variables. */
function curlOf(method: string, path: string, op: Json, ctx: Ctx & { server: string | null }) {
  const params = (op.parameters ?? []) as Json[];
  let url = (ctx.server ?? ctx.baseUrl) + path.replace(/\{(\w+)\}/g, (_m, name) => {
    const p = params.find((x) => x.name === name);
    return p?.example !== undefined ? encodeURIComponent(String(p.example)) : `$${shellName(name)}`;
  });
  const search = params
    .filter((p) => p.in === "query" && (p.required === true || p.example !== undefined))
    .map((p) =>
      `${encodeURIComponent(String(p.name))}=${
        p.example !== undefined ? encodeURIComponent(String(p.example)) : `$${shellName(p.name)}`
      }`
    );
  if (search.length) url += `?${search.join("&")}`;
  const lines = [`curl${method === "get" ? "" : ` -X ${method.toUpperCase()}`} "${url}"`];
  const security = (op.security ?? []) as Json[];
  const scheme = security.flatMap((s) => Object.keys(s)).find((k) => SCHEME_CURL[k]);
  if (scheme) lines.push(SCHEME_CURL[scheme]);
  for (const p of params.filter((p) => p.in === "header")) {
    lines.push(`-H "${p.name}: $${shellName(p.name)}"`);
  }
  const content = (op.requestBody as Json | undefined)?.content as Json | undefined;
  const [mediaType, media] = Object.entries(content ?? {})[0] ?? [];
  if (mediaType === "application/json") {
    const example = (media as Json).example ??
      exampleOf(resolve((media as Json).schema as Json, ctx), ctx, 0);
    lines.push(`-H "content-type: application/json"`);
    lines.push(`-d '${JSON.stringify(example).replaceAll("'", "'\\''")}'`);
  } else if (mediaType === "multipart/form-data") {
    const schema = resolve((media as Json).schema as Json, ctx);
    for (const [key, p] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
      const binary = p.format === "binary" || p.contentMediaType;
      if (!binary && !(schema.required as string[] | undefined)?.includes(key)) continue;
      lines.push(`-F "${key}=${binary ? `@${key}` : `$${shellName(key)}`}"`);
    }
  } else if (mediaType) {
    lines.push(`-H "content-type: ${mediaType}" --data-binary @file`);
  }
  return lines.join(" \\\n  ");
}

/** An example value: the schema's own example, default, const or first choice, else by type. */
function exampleOf(schema: Json, ctx: Ctx, depth: number): unknown {
  const s = resolve(schema, ctx);
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  const variants = unionOf(s);
  if (variants) return exampleOf(variants[0], ctx, depth);
  switch (s.type) {
    case "object": {
      if (depth > 4) return {};
      const required = new Set((s.required ?? []) as string[]);
      const out: Json = {};
      for (const [key, p] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
        const v = resolve(p, ctx);
        if (required.has(key) || Array.isArray(v.examples)) {
          out[key] = exampleOf(v, ctx, depth + 1);
        }
      }
      return out;
    }
    case "array":
      return s.items ? [exampleOf(s.items as Json, ctx, depth + 1)] : [];
    case "integer":
    case "number":
      return typeof s.minimum === "number" && Math.abs(s.minimum) !== SAFE_INTEGER ? s.minimum : 1;
    case "boolean":
      return true;
    case "string":
      return s.format === "date-time" ? "2026-01-01T00:00:00Z" : "text";
    default:
      return null;
  }
}

/** `Idempotency-Key` → `IDEMPOTENCY_KEY`, `licenseId` → `LICENSE_ID`. */
function shellName(name: unknown): string {
  return String(name).replace(/([a-z])([A-Z])/g, "$1_$2").replace(/\W+/g, "_").toUpperCase();
}

function show(v: unknown): string {
  return JSON.stringify(v);
}

/** An anchor for a heading: lower-case words joined by hyphens. */
function slug(text: string): string {
  return text.toLowerCase().replace(/[{}]/g, "").replace(/[^a-z0-9]+/g, "-").replace(
    /^-|-$/g,
    "",
  );
}
