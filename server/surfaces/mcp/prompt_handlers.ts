/**
 * prompts/list, prompts/get and completion/complete of one publisher's server. Bad names and
 * arguments answer -32602, as the spec's "Error Handling" for prompts and completion asks.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { firstProblem, hasControlChars } from "../../platform/validate.ts";
import { ARTICLE_UI_TEMPLATE } from "./article_ui.tsx";
import { complete, type Completer } from "./completions.ts";
import { describePrompt, type PromptContext, PromptError, PROMPTS } from "./prompts.ts";
import { name, onRequest } from "./rpc.ts";

const cursorless = z.object({ cursor: z.string().max(200).optional() }).passthrough();

const getParams = z.object({
  name,
  arguments: z.record(z.string(), z.unknown()).optional(),
}).passthrough();

const completeParams = z.object({
  ref: z.discriminatedUnion("type", [
    z.object({ type: z.literal("ref/prompt"), name }).passthrough(),
    z.object({ type: z.literal("ref/resource"), uri: z.string().max(300) }).passthrough(),
  ], { error: 'must be {type: "ref/prompt", name} or {type: "ref/resource", uri}' }),
  argument: z.object({
    name,
    value: z.string({ error: "is required (a string)" }).max(200, "must be at most 200 characters")
      .refine((s) => !hasControlChars(s), "must not contain control characters"),
  }),
}).passthrough();

/** Registers the prompt and completion handlers on `server`. */
export function registerPrompts(server: Server, ctx: PromptContext): void {
  onRequest(server, "prompts/list", cursorless, () => ({ prompts: PROMPTS.map(describePrompt) }));

  onRequest(server, "prompts/get", getParams, async (params) => {
    const prompt = promptNamed(params.name);
    const parsed = prompt.schema.safeParse(params.arguments ?? {});
    if (!parsed.success) {
      const { field, message } = firstProblem(parsed.error, "arguments");
      throw invalid(`Invalid arguments for ${prompt.name}: ${field}: ${message}`);
    }
    try {
      return await prompt.messages(ctx, parsed.data as Record<string, string>);
    } catch (err) {
      if (err instanceof PromptError) throw invalid(err.message);
      throw err;
    }
  });

  onRequest(server, "completion/complete", completeParams, async ({ ref, argument }) => {
    let completer: Completer | undefined;
    if (ref.type === "ref/prompt") {
      const prompt = promptNamed(ref.name);
      if (!(argument.name in prompt.schema.shape)) {
        throw invalid(`Prompt ${prompt.name} has no argument "${argument.name}"`);
      }
      completer = prompt.completes[argument.name];
    } else {
      if (ref.uri !== ARTICLE_UI_TEMPLATE) {
        throw invalid(`No resource template has the URI "${ref.uri.slice(0, 200)}"`);
      }
      if (argument.name !== "id") {
        throw invalid(
          `Resource template ${ARTICLE_UI_TEMPLATE} has no argument "${argument.name}"`,
        );
      }
      completer = "article";
    }
    const completion = completer
      ? await complete(ctx, completer, argument.value)
      : { values: [], total: 0, hasMore: false };
    return { completion };
  });
}

function promptNamed(promptName: string) {
  const prompt = PROMPTS.find((p) => p.name === promptName);
  if (!prompt) throw invalid(`Unknown prompt: ${promptName}`);
  return prompt;
}

function invalid(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message);
}
