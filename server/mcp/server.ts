/**
 * One MCP server per request (docs/DESIGN.md §6; the way Outline builds its own): the SDK's low-level
 * `Server` with handlers bound to this publisher and caller, so nothing lives in memory between
 * requests. The low-level server (not McpServer) lets tools/call answer JSON-RPC -32602 for
 * arguments that fail the schema (docs/TEST-PLAN.md 2.18) instead of a tool result.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  type CallToolResult,
  ErrorCode,
  type ListResourcesRequest,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { AppError } from "../errors.ts";
import { firstProblem } from "../validate.ts";
import { readArticle } from "../reads/read_article.ts";
import { ARTICLE_UI_TEMPLATE, articlePage, articleUiUri, MCP_APP_MIME } from "./article_ui.tsx";
import { publisherCard } from "./card.ts";
import { listVisible } from "../reads/listing.ts";
import { viewOf } from "./results.ts";
import { enabledSponsorTools } from "./sponsor_tools.ts";
import { inputJsonSchema, readKey, type ToolContext, type ToolDef } from "./tool_kit.ts";
import { CORE_TOOLS } from "./tools.ts";
import { registerPrompts } from "./prompt_handlers.ts";
import { name, onRequest } from "./rpc.ts";

/** Server name and version announced at initialize. */
export const SERVER_VERSION = "1.0.0";

const callParams = z.object({
  name,
  arguments: z.record(z.string(), z.unknown()).optional(),
}).passthrough();

const readParams = z.object({
  uri: z.string({ error: "is required (a resource URI)" }).max(
    2048,
    "must be at most 2048 characters",
  ),
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
    ...(t.articleUi && options.mcpApps
      ? { _meta: { ui: { resourceUri: ARTICLE_UI_TEMPLATE } } }
      : {}),
  };
}

/** A server wired to this request's publisher and caller. */
export function buildServer(ctx: ServerContext): Server {
  const { publisher, deps } = ctx;
  const mcpApps = publisher.toggles.mcpApps;
  const mime = mcpApps ? MCP_APP_MIME : "text/html";
  const server = new Server(
    { name: `folio-${publisher.slug}`, title: publisher.name, version: SERVER_VERSION },
    {
      capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
      instructions:
        `Articles of ${publisher.name}, licensed for AI use. Search with search_articles, read with get_article (pass last_user_prompt), cite the URL you are given, and use request_license for rights you do not hold.`,
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
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid arguments for ${tool.name}: ${field}: ${message}`,
      );
    }
    const started = performance.now();
    let result: CallToolResult | null = null;
    let fault = false;
    try {
      result = await tool.run(ctx, parsed.data);
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
        });
      }
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async (request: ListResourcesRequest) => {
    const offset = decodeCursor(request.params?.cursor);
    const { items, nextOffset } = await listVisible({ db: deps.store.db, clock: deps.clock }, {
      publisher,
      caller: ctx.caller,
      limit: 50,
      offset,
    });
    return {
      resources: items.map(({ article }) => ({
        uri: articleUiUri(article.id),
        name: article.id,
        title: article.title,
        description: article.summary.slice(0, 300),
        mimeType: mime,
      })),
      ...(nextOffset !== null ? { nextCursor: btoa(String(nextOffset)) } : {}),
    };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [{
      uriTemplate: ARTICLE_UI_TEMPLATE,
      name: "article",
      title: `${publisher.name} article`,
      description: "An article with its license block, as a page",
      mimeType: mime,
    }],
  }));

  onRequest(server, "resources/read", readParams, async ({ uri }) => {
    const m = /^ui:\/\/article\/([^/?#]{1,200})$/.exec(uri);
    if (!m) throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri.slice(0, 200)}`);
    const id = decodeURIComponent(m[1]);
    if (uri === ARTICLE_UI_TEMPLATE) {
      // The template itself is the app shell: it renders the tool result the host forwards.
      return { contents: [{ uri, mimeType: mime, text: articlePage(null, { mcpApps }) }] };
    }
    try {
      // Reading the page is a display read like get_article, and shares its idempotency key.
      const read = await readArticle({ db: deps.store.db, clock: deps.clock }, {
        publisher,
        caller: ctx.caller,
        idOrUrl: id,
        use: "display",
        idempotencyKey: readKey(ctx, "display", id),
      });
      const view = viewOf(deps.config, publisher, read);
      if (!view) {
        throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri.slice(0, 200)}`);
      }
      return { contents: [{ uri, mimeType: mime, text: articlePage(view, { mcpApps }) }] };
    } catch (err) {
      throw internal(ctx, err);
    }
  });

  server.setRequestHandler(DiscoverRequestSchema, () => publisherCard(deps.config, publisher));
  registerPrompts(server, { ...ctx, tools: tools.map((t) => t.name) });
  return server;
}

function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  try {
    const n = Number(atob(cursor));
    if (Number.isSafeInteger(n) && n >= 0 && n <= 1_000_000) return n;
  } catch { /* fall through */ }
  throw new McpError(ErrorCode.InvalidParams, "cursor: not a cursor this server issued");
}

/** Known errors keep their message; anything else is logged and answered without internals. */
function internal(ctx: ServerContext, err: unknown): McpError {
  if (err instanceof McpError) return err;
  if (err instanceof AppError && err.status < 500) {
    return new McpError(ErrorCode.InvalidParams, err.message);
  }
  ctx.deps.log.error("MCP handler failed", {
    requestId: ctx.requestId,
    error: err instanceof Error ? `${err.name}: ${err.message}\n${err.stack}` : String(err),
  });
  return new McpError(
    ErrorCode.InternalError,
    `Something went wrong on our side (request ${ctx.requestId})`,
  );
}
