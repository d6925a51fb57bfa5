/**
 * Outcomes of the access decision as MCP tool results an agent can act on (docs/DESIGN.md §5): text
 * for the model, `structuredContent` for programs, `isError` when nothing usable came back
 * (blocked, denied, territory, unknown article). A paywall upsell is not an error: it is a
 * complete answer saying how to get access.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Article } from "../../../store/articles.ts";
import type { Publisher } from "../../../store/publishers.ts";
import type { Config } from "../../platform/config.ts";
import { centsText, microsToCents } from "../../platform/money.ts";
import { receiptFields } from "../../domain/billing/receipts.ts";
import { REQUEST_VIA } from "../../domain/licensing/mod.ts";
import { licenseBlock } from "../../domain/reads/license_block.ts";
import { articleRef, articleSummary } from "../../domain/reads/present.ts";
import type { ReadResult } from "../../domain/reads/read_article.ts";
import { publisherUrls } from "../../platform/urls.ts";
import {
  articlePage,
  articleUiUri,
  type ArticleView,
  MCP_APP_MIME,
  RESOURCE_UI_META,
} from "./article_ui.tsx";

/** A tool error the model can read. */
export function toolError(text: string, structured?: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: "text", text }],
    ...(structured ? { structuredContent: structured } : {}),
    isError: true,
  };
}

/** What the article page shows for a read (null when the article is unknown). */
export function viewOf(
  config: Pick<Config, "baseUrl">,
  publisher: Publisher,
  read: ReadResult,
): ArticleView | null {
  const { article, decision } = read;
  if (!article || !decision) return null;
  const meta = articleSummary(article);
  const license = licenseBlock(config, publisher, decision);
  const full = decision.outcome === "full";
  const limited = decision.outcome === "license_limited";
  return {
    article: meta,
    body: full ? article.body : null,
    summary: limited ? article.summary : null,
    notice: full ? null : decision.reason,
    license: decision.outcome === "territory_blocked" ? null : license,
  };
}

/**
 * The article page of a read, kept per article object the catalog cache handed out (frozen) and
 * what the page shows of the decision: rendering it was the largest part of a get_article
 * (docs/PERFORMANCE.md, issue 39), and a free article is read again and again.
 */
function pageOf(
  ctx: { config: Pick<Config, "baseUrl">; publisher: Publisher; mcpApps: boolean },
  read: ReadResult,
): string {
  const view = viewOf(ctx.config, ctx.publisher, read);
  const article = read.article;
  if (!view || !article || !Object.isFrozen(article)) {
    return articlePage(view, { mcpApps: ctx.mcpApps });
  }
  // Everything the page shows beside the article itself.
  const key = JSON.stringify([ctx.mcpApps, view.notice, view.license, read.decision?.outcome]);
  let pages = kept.get(article);
  const hit = pages?.get(key);
  if (hit !== undefined) return hit;
  const page = articlePage(view, { mcpApps: ctx.mcpApps });
  if (!pages || pages.size >= 16) kept.set(article, pages = new Map());
  pages.set(key, page);
  return page;
}
const kept = new WeakMap<Article, Map<string, string>>();

/** The get_article result for a read. */
export function articleResult(
  ctx: { config: Pick<Config, "baseUrl">; publisher: Publisher; mcpApps: boolean },
  ref: string,
  read: ReadResult,
): CallToolResult {
  const { config, publisher } = ctx;
  const { article, decision } = read;
  if (!article || !decision) {
    return toolError(`No article of ${publisher.name} has the id or URL "${ref.slice(0, 200)}".`, {
      status: "article_not_found",
    });
  }
  const meta = articleSummary(article);
  const license = licenseBlock(config, publisher, decision);
  const charged = read.charge
    ? {
      chargedUsdCents: microsToCents(read.charge.micros),
      budgetRemainingUsdCents: microsToCents(read.charge.remainingMicros),
      ...receiptFields(read.charge),
    }
    : {};
  const ui = (): CallToolResult["content"][number] => ({
    type: "resource",
    resource: {
      uri: articleUiUri(article.id),
      mimeType: ctx.mcpApps ? MCP_APP_MIME : "text/html",
      text: pageOf(ctx, read),
      ...(ctx.mcpApps ? { _meta: RESOURCE_UI_META } : {}),
    },
  });
  // The app view is the tool's (tools/list `_meta.ui`); SEP-1865 puts no UI link on a result.
  const withUi = (r: CallToolResult): CallToolResult => ({ ...r, content: [...r.content, ui()] });
  const licenseText = `License: ${license.licensor}; rights ${
    Object.entries(license.rights).map(([k, v]) => `${k} ${v}`).join(", ")
  }; terms ${license.termsUrl}.`;

  switch (decision.outcome) {
    case "full":
      return withUi({
        content: [{
          type: "text",
          text:
            `${decision.reason}\n\n# ${article.title}\n${byline(article)}\nSource: ${meta.url}` +
            `\n\n${article.body}\n\n---\n${licenseText}`,
        }],
        structuredContent: {
          status: "full",
          message: decision.reason,
          article: { ...meta, body: article.body, policy: decision.policy },
          license,
          ...charged,
        },
      });
    case "license_limited": {
      const message = decision.reason;
      return withUi({
        content: [{
          type: "text",
          text: `${message}\n\n# ${article.title}\n${byline(article)}\n\n${article.summary}` +
            `\n\n---\n${licenseText}`,
        }],
        structuredContent: {
          status: "license_limited",
          message,
          article: { ...meta, policy: decision.policy },
          license,
          ...charged,
        },
      });
    }
    case "blocked":
      return toolError(`${decision.reason} Source: ${meta.url}`, {
        status: "blocked",
        message: decision.reason,
        article: articleRef(article),
      });
    case "license_denied":
      return toolError(
        `${decision.reason} Source: ${meta.url}`,
        {
          status: "license_denied",
          message: decision.reason,
          article: articleRef(article),
          license,
          requestLicense: {
            tool: "request_license",
            arguments: ["use_case", "message", "contact"],
          },
        },
      );
    case "territory_blocked":
      return toolError(decision.reason, {
        status: "territory_blocked",
        message: decision.reason,
      });
    case "payment_overdue":
      return toolError(decision.reason, {
        status: "payment_overdue",
        message: decision.reason,
        invoiceNumber: decision.overdue!.invoiceNumber,
        invoiceUrl: decision.overdue!.url,
      });
    default:
      return upsell(ctx, { article, read });
  }
}

/** The structured paywall upsell (docs/SPEC.md "MCP server": instead of body text). */
function upsell(
  ctx: { config: Pick<Config, "baseUrl">; publisher: Publisher },
  r: { article: Article; read: ReadResult },
): CallToolResult {
  const { config, publisher } = ctx;
  const decision = r.read.decision!;
  const base = config.baseUrl;
  const price = decision.pricingUsdCents.display;
  const urls = publisherUrls(config, publisher);
  const payload = {
    status: "paywall_upsell",
    message: decision.reason,
    article: articleSummary(r.article),
    price: { usdCents: price, use: "display" },
    signup: {
      url: `${base}/api/marketplace/signup`,
      howTo:
        `POST {name, email} to sign up as a buyer; then send the buyer key as "Authorization: Bearer mk_..." to read per use at ${
          centsText(price)
        }, billed on one monthly statement.`,
    },
    subscribe: {
      url: `${base}/api/marketplace/licenses`,
      howTo:
        `As a buyer, POST {publisherId: "${publisher.id}", useCases: ["display"]} for a monthly subscription to ${publisher.name}.`,
    },
    requestLicense: { tool: "request_license", howTo: REQUEST_VIA },
    termsUrl: urls.terms,
    license: licenseBlock(config, publisher, decision),
  };
  // The sentence, then where to act (MCP has no other place a model reads links), then the summary.
  const text = `${payload.message} Sign up at ${payload.signup.url}; subscribe at ` +
    `${payload.subscribe.url}; or call request_license. ` +
    `Summary: ${r.article.summary} Source: ${payload.article.url}`;
  return { content: [{ type: "text", text }], structuredContent: payload };
}

function byline(a: Article): string {
  return [a.author && `By ${a.author}`, a.publishedAt?.slice(0, 10)].filter(Boolean).join(", ");
}
