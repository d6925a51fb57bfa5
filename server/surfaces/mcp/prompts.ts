/**
 * Prompts (MCP 2025-06-18 "Prompts"): templates that show an agent how to use this publisher well,
 * worded from its own name, rights, prices and terms and naming the tools it really offers. An
 * article a prompt names is looked up with the listing's visibility (server/domain/reads/visibility.ts):
 * one a listing hides is "not found", the same answer as an unknown id.
 */
import type { GetPromptResult, Prompt } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Article } from "../../../store/articles.ts";
import type { UseCase } from "../../../store/vocabulary.ts";
import { USE_CASES } from "../../../store/vocabulary.ts";
import { centsText, pricesInCents } from "../../platform/money.ts";
import { licenseBlock } from "../../domain/reads/license_block.ts";
import { text, urlOrId } from "../../domain/reads/inputs.ts";
import { articleSummary } from "../../domain/reads/present.ts";
import { peekArticle } from "../../domain/reads/read_article.ts";
import { listable } from "../../domain/reads/visibility.ts";
import { publisherUrls } from "../../platform/urls.ts";
import type { Completer } from "./completions.ts";
import { CITATION_STYLES } from "../../domain/reads/citation.ts";
import { citeArticle as cite } from "../../domain/reads/cite.ts";
import { readDeps, type ToolContext } from "./tool_kit.ts";
import { publicRights } from "../../domain/licensing/rights.ts";

/** One prompt: strict string arguments, which of them complete, and its messages. */
export interface PromptDef {
  name: string;
  title: string;
  description: string;
  schema: z.ZodObject;
  completes: Record<string, Completer>;
  messages(ctx: PromptContext, args: Record<string, string>): Promise<GetPromptResult>;
}

/** A prompt's context: the tool context and the names of the tools this publisher offers. */
export interface PromptContext extends ToolContext {
  tools: readonly string[];
}

/** A prompt refusal the handler answers as -32602. */
export class PromptError extends Error {}

const articleId = urlOrId.describe("The article's id (or its URL)");
const STYLES = CITATION_STYLES;

const researchTopic: PromptDef = {
  name: "research_topic",
  title: "Research a topic",
  description:
    "Research a topic across this publisher's catalog: find, read and cite its articles within their license terms.",
  schema: z.strictObject({
    topic: text(100).describe("The topic, e.g. one of the catalog's tags"),
  }),
  completes: { topic: "topic" },
  messages(ctx, args) {
    const p = ctx.publisher;
    const { topic } = args;
    const has = (t: string) => ctx.tools.includes(t);
    const steps = [
      `Find articles: call list_by_topic with tag "${topic}" and search_articles with query "${topic}".` +
      (publicRights(p.rights).rag
        ? " retrieve_passages returns the passages that best answer a narrower question."
        : ""),
      `Read the most relevant ones with get_article (url_or_id from the results), passing last_user_prompt: the user's latest prompt, verbatim.`,
      `Answer from what you read. Cite every article you use by its title and the URL the tools return, naming ${p.name} as the source` +
      (has("cite_article") ? "; cite_article formats an APA, MLA or Chicago citation." : "."),
      `Follow the license block each article comes with. When get_article answers with a paywall, tell the user how to get access instead of guessing the content; for a use the license does not grant, call request_license.`,
    ];
    return Promise.resolve(
      user(
        `Research "${topic}" for the user using ${p.name}'s articles, licensed for AI use.\n\n` +
          steps.map((s, i) => `${i + 1}. ${s}`).join("\n") + `\n\n${terms(ctx)}`,
        `Research "${topic}" in ${p.name}`,
      ),
    );
  },
};

const citeArticle: PromptDef = {
  name: "cite_article",
  title: "Cite an article",
  description:
    "Cite one of this publisher's articles with its canonical URL, its license and the attribution its terms ask for.",
  schema: z.strictObject({
    article_id: articleId,
    style: z.enum(STYLES, { error: `must be one of ${STYLES.join(", ")}` }).optional()
      .describe("Citation style: apa (default), mla or chicago"),
  }),
  completes: { article_id: "article" },
  async messages(ctx, args) {
    const p = ctx.publisher;
    const { article, license } = await visibleArticle(ctx, args.article_id);
    const meta = articleSummary(article);
    const style = (args.style ?? "apa") as typeof STYLES[number];
    const citation = await cite(ctx.deps.store.db, p, article, style);
    const quote = license.rights.display === "granted"
      ? `You may quote it within its license: read it with get_article (url_or_id "${article.id}") first.`
      : "Display is not granted for it: do not quote its text.";
    return user(
      `Cite this article of ${p.name}.\n\n${facts(article, meta.url)}\n` +
        `Licensor: ${license.licensor}\nLicense: ${rightsText(license.rights)}\n` +
        `Terms: ${license.termsUrl}\n\nCitation (${style.toUpperCase()}): ${citation}\n\n` +
        `Use the canonical URL above, not another copy of the page, and attribute it as ` +
        `"Source: ${article.title}, ${p.name}, ${meta.url}". ${quote}`,
      `Cite "${article.title}"`,
    );
  },
};

const summarizeLicensed: PromptDef = {
  name: "summarize_licensed",
  title: "Summarize within the license",
  description:
    "Summarize one of this publisher's articles only as far as its license allows, with attribution.",
  schema: z.strictObject({ article_id: articleId }),
  completes: { article_id: "article" },
  async messages(ctx, args) {
    const p = ctx.publisher;
    const { article, license } = await visibleArticle(ctx, args.article_id);
    const url = articleSummary(article).url;
    const prices = pricesInCents(p.pricesMicros);
    const paid = article.policy === "PAYWALL"
      ? ` It is a paid article: a read costs ${
        centsText(prices.display)
      } to a buyer account; get_article says how to get access when it is paid.`
      : "";
    const how = license.rights.summarization === "granted"
      ? `Summarization is granted. Read it with get_article (url_or_id "${article.id}", passing last_user_prompt), then summarize it in your own words` +
        (license.rights.display === "granted" ? "" : ", quoting none of its text") +
        `, and end with "Source: ${article.title}, ${p.name}, ${url}".${paid}`
      : `Summarization is not granted for this article: do not summarize it. Tell the user, link ${url}, and call request_license with use_case "summarization" if they need a summary.`;
    return user(
      `Summarize this article of ${p.name} within its license.\n\n${facts(article, url)}\n` +
        `License: ${rightsText(license.rights)}; terms ${license.termsUrl}\n\n${how}`,
      `Summarize "${article.title}"`,
    );
  },
};

/** Every publisher's prompts, in prompts/list order. */
export const PROMPTS: readonly PromptDef[] = [researchTopic, citeArticle, summarizeLicensed];

/** The prompts/list entry of a prompt: its arguments from its schema. */
export function describePrompt(p: PromptDef): Prompt {
  return {
    name: p.name,
    title: p.title,
    description: p.description,
    arguments: Object.entries(p.schema.shape).map(([name, s]) => ({
      name,
      description: (s as z.ZodType).description,
      required: !(s as z.ZodType).safeParse(undefined).success,
    })),
  };
}

/** The article `ref` names, when a listing would show it to this caller; else not found. */
async function visibleArticle(ctx: PromptContext, ref: string) {
  const { article, decision } = await peekArticle(readDeps(ctx), {
    publisher: ctx.publisher,
    caller: ctx.caller,
    idOrUrl: ref,
    use: "rag",
  });
  if (!article || !decision || !listable(decision)) {
    throw new PromptError(
      `No article of ${ctx.publisher.name} has the id or URL "${ref.slice(0, 200)}"`,
    );
  }
  return { article, license: licenseBlock(ctx.deps.config, ctx.publisher, decision) };
}

/** The publisher's license in a paragraph: rights, prices, meter, terms. */
function terms(ctx: PromptContext): string {
  const p = ctx.publisher;
  const rights = publicRights(p.rights);
  const granted = (u: UseCase) => rights[u];
  const prices = pricesInCents(p.pricesMicros);
  const no = USE_CASES.filter((u) => !granted(u));
  return `${p.name}'s license: granted uses ${
    USE_CASES.filter(granted).join(", ") || "none"
  }; not granted: ${no.join(", ") || "none"}. Paid articles cost ${
    centsText(prices.display)
  } per display, ` +
    `${centsText(prices.summarization)} per summary and ${
      centsText(prices.rag)
    } per RAG use on a buyer account; ` +
    `without one, ${p.paywallMeterLimit} paid articles a month are free to read. An article's own ` +
    `license block may narrow these rights. Terms: ${publisherUrls(ctx.deps.config, p).terms}`;
}

function facts(a: Article, url: string): string {
  return `Title: ${a.title}\nAuthor: ${a.author || "(not given)"}\nPublished: ${
    a.publishedAt?.slice(0, 10) ?? "undated"
  }\nCanonical URL: ${url}`;
}

function rightsText(rights: Record<string, string>): string {
  return Object.entries(rights).map(([k, v]) => `${k} ${v}`).join(", ");
}

function user(text: string, description: string): GetPromptResult {
  return { description, messages: [{ role: "user", content: { type: "text", text } }] };
}
