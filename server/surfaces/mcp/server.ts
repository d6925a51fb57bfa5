/**
 * One MCP server per request (docs/DESIGN.md §6; the way Outline builds its own): the SDK's low-level
 * `Server` with handlers bound to this publisher and caller, so nothing lives in memory between
 * requests. The low-level server (not McpServer) lets tools/call follow the session's protocol
 * version for arguments that fail the schema: a tool result with `isError` from 2025-11-25
 * (SEP-1303, so the model reads the sentence and corrects itself), JSON-RPC -32602 before it
 * (docs/TEST-PLAN.md 2.18). An unknown tool is a protocol error on every version.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import {
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { firstProblem } from "../../platform/validate.ts";
import { TOOL_UI_META } from "./article_ui.tsx";
import { publisherCard } from "./card.ts";
import { toolError } from "./results.ts";
import { enabledSponsorTools } from "./sponsor_tools.ts";
import { callKey, inputJsonSchema, type ToolContext, type ToolDef } from "./tool_kit.ts";
import { CORE_TOOLS } from "./tools.ts";
import { registerPrompts } from "./prompt_handlers.ts";
import { registerResources } from "./resources.ts";
import { internal, name, onRequest } from "./rpc.ts";
import { callScope, inCallScope } from "../../platform/call_scope.ts";

/** Server name and version announced at initialize. */
export const SERVER_VERSION = "1.0.0";

const callParams = z.object({
  name,
  arguments: z.record(z.string(), z.unknown()).optional(),
}).passthrough();

const DiscoverRequestSchema = z.object({
  method: z.literal("server/discover"),
  params: z.optional(z.object({}).passthrough()),
});

/** Extra facts the handlers need beyond the tool context. */
export interface ServerContext extends ToolContext {
  userAgent: string;
  requestId: string;
  /** False for a probe round's requests, which stay out of the call log. */
  logged: boolean;
  /** The protocol version the session negotiated at initialize. */
  protocolVersion: string;
}

/**
 * Whether a tool's input errors are tool results on this protocol version: SEP-1303, in the
 * 2025-11-25 revision, moved them from protocol errors to tool execution errors. Versions are dates,
 * so they compare as strings (as the endpoint's batch check does).
 */
export function inputErrorsAsResults(protocolVersion: string): boolean {
  return protocolVersion >= "2025-11-25";
}

/** The tools this publisher exposes: the core tools and its enabled sponsor tools. */
export function toolsFor(ctx: Pick<ToolContext, "publisher">): ToolDef[] {
  return [...CORE_TOOLS, ...enabledSponsorTools(ctx.publisher.sponsorTools)];
}

const schemaCache = new WeakMap<ToolDef, Tool["inputSchema"]>();

/** The tools/list entry of a tool. */
export function describeTool(t: ToolDef, options: { mcpApps: boolean }): Tool {
  let inputSchema = schemaCache.get(t);
  if (!inputSchema) schemaCache.set(t, inputSchema = inputJsonSchema(t.schema));
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema,
    ...(t.annotations ? { annotations: t.annotations } : {}),
    // SEP-1865 (MCP Apps): the tool names its UI resource; hosts without Apps ignore _meta.
    ...(t.articleUi && options.mcpApps ? { _meta: TOOL_UI_META } : {}),
  };
}

// The SDK builds a fresh Ajv for every Server unless given one (a tenth of a tools/call in a
// profile, issue 15); the servers of all requests share this one, made on first use.
let validator: AjvJsonSchemaValidator | null = null;

/** A server wired to this request's publisher and caller. */
export function buildServer(ctx: ServerContext): Server {
  const { publisher, deps } = ctx;
  const mcpApps = publisher.toggles.mcpApps;
  const server = new Server(
    { name: `folio-${publisher.slug}`, title: publisher.name, version: SERVER_VERSION },
    {
      capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
      jsonSchemaValidator: validator ??= new AjvJsonSchemaValidator(),
      instructions:
        `Articles of ${publisher.name}, licensed for AI use. Search with search_articles, read with get_article (pass last_user_prompt), cite the URL you are given, use request_license for rights you do not hold, and follow it with license_request_status.`,
    },
  );
  const tools = toolsFor(ctx);

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((t) => describeTool(t, { mcpApps })),
  }));

  onRequest(server, "tools/call", callParams, async (params) => {
    const tool = tools.find((t) => t.name === params.name);
    if (!tool) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool: ${params.name}`,
      );
    }
    const parsed = tool.schema.safeParse(params.arguments ?? {});
    if (!parsed.success) {
      const { field, message } = firstProblem(parsed.error, "arguments");
      const sentence = `Invalid arguments for ${tool.name}: ${field}: ${message}`;
      if (inputErrorsAsResults(ctx.protocolVersion)) {
        return toolError(sentence, { status: "invalid_arguments", param: field });
      }
      throw new McpError(ErrorCode.InvalidParams, sentence);
    }
    const started = performance.now();
    let result: CallToolResult | null = null;
    let fault = false;
    // This tool call's own row names the article it read (its request's trace row names it too).
    const read = callScope();
    try {
      result = await inCallScope(
        read,
        () => tool.run({ ...ctx, idempotencyKey: callKey(ctx, params._meta) }, parsed.data),
      );
      return result;
    } catch (err) {
      const error = internal(ctx, err);
      fault = error.code === ErrorCode.InternalError;
      throw error;
    } finally {
      if (ctx.logged) {
        deps.callLog.record({
          publisherId: publisher.id,
          at: deps.clock.now(),
          surface: "mcp",
          tool: tool.name,
          userAgent: ctx.userAgent,
          latencyMs: performance.now() - started,
          status: result && !result.isError ? "ok" : "error",
          // The answer is a 200 either way; a failure on our side is logged as the 500 it is.
          httpStatus: fault ? 500 : 200,
          identity: ctx.caller.identity,
          requestId: ctx.requestId,
          articleId: read.articleId,
        });
      }
    }
  });

  registerResources(server, ctx);
  server.setRequestHandler(DiscoverRequestSchema, () => publisherCard(deps.config, publisher));
  registerPrompts(server, { ...ctx, tools: tools.map((t) => t.name) });
  return server;
}
