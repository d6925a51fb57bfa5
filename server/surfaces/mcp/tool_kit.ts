/** What every MCP tool is made of: a strict zod input schema and a handler over one context. */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Publisher } from "../../../store/publishers.ts";
import type { AppDeps } from "../../deps.ts";
import type { Caller } from "../../domain/reads/requester.ts";
import { monthOf } from "../../platform/clock.ts";

/** Everything a tool call may use: the publisher, the caller and the session. */
export interface ToolContext {
  deps: AppDeps;
  publisher: Publisher;
  caller: Caller;
  /** Stable, non-secret key of the session (for idempotency keys). */
  sessionKey: string;
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
  return { db: deps.store.db, clock: deps.clock, search: deps.search, intents: deps.callLog };
}

/** One charge per article reference, use, session and month: a host re-reading is not billed twice. */
export function readKey(ctx: ToolContext, use: string, ref: string): string {
  return `mcp:${ctx.sessionKey}:${monthOf(ctx.deps.clock.now())}:${use}:${ref}`;
}
