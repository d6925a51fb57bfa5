/**
 * The article pages as MCP resources (docs/SPEC.md "MCP server"): `ui://article/<id>` for each
 * article a listing shows, the `ui://article/{id}` template, and, with MCP Apps on, the app view the
 * get_article tool names (SEP-1865), listed first and read like any other resource.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ErrorCode,
  ListResourceTemplatesRequestSchema,
  McpError,
  type ReadResourceResult,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { listVisible } from "../../domain/reads/listing.ts";
import { readArticle } from "../../domain/reads/read_article.ts";
import {
  ARTICLE_UI_TEMPLATE,
  ARTICLE_VIEW_URI,
  articlePage,
  articleUiUri,
  MCP_APP_MIME,
  RESOURCE_UI_META,
} from "./article_ui.tsx";
import { viewOf } from "./results.ts";
import { internal, onRequest } from "./rpc.ts";
import type { ServerContext } from "./server.ts";
import { callKey } from "./tool_kit.ts";

const listParams = z.object({ cursor: z.string().max(200).optional() }).passthrough();

const readParams = z.object({
  uri: z.string({ error: "is required (a resource URI)" })
    .max(2048, "must be at most 2048 characters"),
}).passthrough();

/** Registers resources/list, resources/templates/list and resources/read on `server`. */
export function registerResources(server: Server, ctx: ServerContext): void {
  const { publisher, deps } = ctx;
  const mcpApps = publisher.toggles.mcpApps;
  const mime = mcpApps ? MCP_APP_MIME : "text/html";
  const meta = mcpApps ? { _meta: RESOURCE_UI_META } : {};
  const page = (uri: string, text: string): ReadResourceResult => ({
    contents: [{ uri, mimeType: mime, text, ...meta }],
  });
  const notFound = (uri: string) =>
    new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri.slice(0, 200)}`);

  onRequest(server, "resources/list", listParams, async ({ cursor }) => {
    const offset = decodeCursor(cursor);
    const { items, nextOffset } = await listVisible({ db: deps.store.db, clock: deps.clock }, {
      publisher,
      caller: ctx.caller,
      limit: 50,
      offset,
    });
    const view = mcpApps && offset === 0
      ? [{
        uri: ARTICLE_VIEW_URI,
        name: "article-view",
        title: `${publisher.name} article view`,
        description: "Shows the article get_article returns, with its license block",
        mimeType: mime,
        ...meta,
      }]
      : [];
    return {
      resources: [
        ...view,
        ...items.map(({ article }) => ({
          uri: articleUiUri(article.id),
          name: article.id,
          title: article.title,
          description: article.summary.slice(0, 300),
          mimeType: mime,
          ...meta,
        })),
      ],
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

  onRequest(server, "resources/read", readParams, async ({ uri, _meta }) => {
    // The view, and the template read literally (as tools/list once named it): the app shell,
    // which renders the tool result the host forwards.
    if ((uri === ARTICLE_VIEW_URI && mcpApps) || uri === ARTICLE_UI_TEMPLATE) {
      return page(uri, articlePage(null, { mcpApps }));
    }
    const id = articleIdOf(uri);
    if (id === null) throw notFound(uri);
    try {
      // Reading the page is a display read like get_article: billed unless it retries a key.
      const read = await readArticle({
        db: deps.store.db,
        clock: deps.clock,
        intents: deps.callLog,
        receipts: deps.receipts,
      }, {
        publisher,
        caller: ctx.caller,
        idOrUrl: id,
        use: "display",
        idempotencyKey: callKey(ctx, _meta),
      });
      const view = viewOf(deps.config, publisher, read);
      if (!view) throw notFound(uri);
      return page(uri, articlePage(view, { mcpApps }));
    } catch (err) {
      throw internal(ctx, err);
    }
  });
}

/** The article reference in `ui://article/<ref>`, or null. */
function articleIdOf(uri: string): string | null {
  const m = /^ui:\/\/article\/([^/?#]{1,200})$/.exec(uri);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  try {
    const n = Number(atob(cursor));
    if (Number.isSafeInteger(n) && n >= 0 && n <= 1_000_000) return n;
  } catch { /* fall through */ }
  throw new McpError(ErrorCode.InvalidParams, "cursor: not a cursor this server issued");
}
