/**
 * The two skills of a publisher's agent and how a message names one (docs/SPEC.md "A2A server": message
 * payload shapes are ours). A data part carries `{skill, ...arguments}`; a message with only text
 * parts is a search for that text. The inputs are the shared ones (server/domain/reads/inputs.ts). Parts are read in both
 * wire forms: v0.3 (`{kind: "text", text}`, `{kind: "data", data}`) and v1.0 (`{text}`, `{data}`).
 */
import type { z } from "zod";
import * as inputs from "../../domain/reads/inputs.ts";

/** A skill invocation parsed from a message. */
export type SkillCall =
  | { skill: "search_articles"; query: string; limit: number }
  | { skill: "get_article"; idOrUrl: string; lastUserPrompt: string | null };

/** The skill ids the card declares. */
export const SKILLS = ["search_articles", "get_article"] as const;

/** Bad parameters: becomes JSON-RPC -32602 (or -32005 for an unsupported content type). */
export class ParamsError extends Error {
  constructor(message: string, readonly code: -32602 | -32005 = -32602) {
    super(message);
  }
}

const SEARCH_KEYS = new Set(["skill", "query", "limit"]);
const ARTICLE_KEYS = new Set(["skill", "url_or_id", "id", "url", "last_user_prompt"]);

/** The skill call in `params.message` of message/send or SendMessage; throws ParamsError. */
export function parseSkillCall(params: Record<string, unknown>): SkillCall {
  const message = params.message;
  if (!isObject(message)) throw new ParamsError("message: is required and must be an object");
  if (typeof message.messageId !== "string" || message.messageId.length < 1) {
    throw new ParamsError("message.messageId: is required (a unique string per message)");
  }
  if (message.messageId.length > 200) {
    throw new ParamsError("message.messageId: must be at most 200 characters");
  }
  // ProtoJSON (v1.0) takes an enum by name or by number: ROLE_USER is 1.
  if (message.role !== undefined && !["user", "ROLE_USER", 1].includes(message.role as string)) {
    throw new ParamsError('message.role: must be "user" (v0.3) or "ROLE_USER" (v1.0)');
  }
  if (!Array.isArray(message.parts) || message.parts.length < 1) {
    throw new ParamsError("message.parts: must be a non-empty array");
  }
  if (message.parts.length > 16) throw new ParamsError("message.parts: at most 16 parts");
  const texts: string[] = [];
  const datas: Record<string, unknown>[] = [];
  for (const part of message.parts) {
    if (!isObject(part)) throw new ParamsError("message.parts: every part must be an object");
    if (typeof part.text === "string") texts.push(part.text);
    else if (isObject(part.data)) datas.push(part.data);
    else {
      throw new ParamsError(
        "message.parts: only text and data parts are accepted (no files or URLs)",
        -32005,
      );
    }
  }
  const text = texts.join("\n").trim();
  if (datas.length > 1) throw new ParamsError("message.parts: at most one data part");
  if (datas.length === 0) {
    const query = field(inputs.query, "query", text);
    return { skill: "search_articles", query, limit: field(inputs.limit, "limit", undefined) };
  }
  const data = datas[0];
  if (data.skill === "search_articles") {
    unknownKeys(data, SEARCH_KEYS);
    return {
      skill: "search_articles",
      query: field(inputs.query, "query", data.query === undefined ? text : data.query),
      limit: field(inputs.limit, "limit", data.limit ?? undefined),
    };
  }
  if (data.skill === "get_article") {
    unknownKeys(data, ARTICLE_KEYS);
    const prompt = data.last_user_prompt === undefined ? text : data.last_user_prompt;
    return {
      skill: "get_article",
      idOrUrl: field(inputs.urlOrId, "url_or_id", data.url_or_id ?? data.id ?? data.url),
      lastUserPrompt: lastUserPrompt(prompt),
    };
  }
  throw new ParamsError(`skill: must be one of ${SKILLS.join(", ")}`);
}

/** A shared read input, or the ParamsError naming the field. */
function field<S extends z.ZodType>(schema: S, name: string, value: unknown): z.output<S> {
  const r = inputs.parseField(schema, name, value);
  if (!r.ok) throw new ParamsError(r.message);
  return r.value;
}

/** No prompt (absent, null or empty text) is allowed on A2A; one that is given is checked. */
function lastUserPrompt(v: unknown): string | null {
  if (v === undefined || v === null || v === "") return null;
  return field(inputs.lastUserPrompt, "last_user_prompt", v);
}

function unknownKeys(data: Record<string, unknown>, allowed: Set<string>): void {
  const extra = Object.keys(data).filter((k) => !allowed.has(k));
  if (extra.length) {
    throw new ParamsError(
      `${extra[0]}: is not an argument of ${data.skill} (allowed: ${[...allowed].join(", ")})`,
    );
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
