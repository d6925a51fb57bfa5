/** What every MCP tool is made of: a strict zod input schema and a handler over one context. */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Publisher } from "../../../store/publishers.ts";
import type { AppDeps } from "../../deps.ts";
import type { Caller } from "../../domain/reads/requester.ts";
import { idempotencyKeyOf } from "../../domain/reads/inputs.ts";

/** Everything a tool call may use: the publisher, the caller and the session. */
export interface ToolContext {
  deps: AppDeps;
  publisher: Publisher;
  caller: Caller;
  /**
   * The buyer's idempotency key for this call's read, if it sent one (the `Idempotency-Key`
   * header, or `_meta["folio/idempotencyKey"]` of the tools/call or resources/read): a retry with
   * the same key is billed once (docs/decisions/billing.md "One billable read").
   */
  idempotencyKey: string | null;
}

/** One tool. Input is parsed with `schema` before `run` sees it (unknown fields refused). */
export interface ToolDef {
  name: string;
  title: string;
  description: string;
  schema: z.ZodObject;
  annotations?: Tool["annotations"];
  /** Advertise the article UI (MCP Apps) on this tool when the publisher has it on. */
  articleUi?: boolean;
  run(ctx: ToolContext, args: Record<string, unknown>): Promise<CallToolResult>;
}

/** Defines a tool with typed arguments. */
export function defineTool<S extends z.ZodObject>(
  def: Omit<ToolDef, "schema" | "run"> & {
    schema: S;
    run(ctx: ToolContext, args: z.output<S>): Promise<CallToolResult>;
  },
): ToolDef {
  return def as unknown as ToolDef;
}

/** The JSON Schema of a tool's input, as tools/list advertises it. */
export function inputJsonSchema(schema: z.ZodObject): Tool["inputSchema"] {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: "input" }) as Record<
    string,
    unknown
  >;
  return json as Tool["inputSchema"];
}

/** What server/domain/reads needs from a tool's context. */
export function readDeps(ctx: ToolContext) {
  const { deps } = ctx;
  return {
    db: deps.store.db,
    clock: deps.clock,
    search: deps.search,
    intents: deps.callLog,
    receipts: deps.receipts,
  };
}

/** Where an MCP request may carry its idempotency key besides the HTTP header. */
export const IDEMPOTENCY_META = "folio/idempotencyKey";

/** The call's key: its `_meta` entry wins over the request's header (both checked). */
export function callKey(ctx: ToolContext, meta: unknown): string | null {
  const fromMeta = meta && typeof meta === "object"
    ? (meta as Record<string, unknown>)[IDEMPOTENCY_META]
    : undefined;
  return fromMeta === undefined
    ? ctx.idempotencyKey
    : idempotencyKeyOf(fromMeta, `_meta.${IDEMPOTENCY_META}`);
}
