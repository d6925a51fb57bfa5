/**
 * NLWeb's answer shapes (docs/decisions/landing-and-crawlers.md "NLWeb ask"): the v0.54 Failure
 * (`_meta.response_type: "Failure"` with `error: {code, message}`), the two v0.54 answer formats
 * (`conv_search`: `results`; `chatgpt_app`: `content` + `structuredData`), and the classic
 * API's server-sent events (`begin-nlweb-response`, `result`, `end-nlweb-response`, each a
 * `data:` line of JSON).
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export const NLWEB_VERSION = "0.54";

/** The v0.54 answer formats `prefer.response_format` may name. */
export const RESPONSE_FORMATS = ["conv_search", "chatgpt_app"] as const;
export type ResponseFormat = typeof RESPONSE_FORMATS[number];

/** A refusal in NLWeb's own form; the HTTP status still says what kind. */
export class NlwebFailure extends Error {
  override name = "NlwebFailure";
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The v0.54 Failure response. */
export function failureBody(code: string, message: string): Record<string, unknown> {
  return { _meta: { response_type: "Failure", version: NLWEB_VERSION }, error: { code, message } };
}

/** The v0.54 Answer in the asked format; `query_id` is kept for classic clients. */
export function answerBody(
  queryId: string,
  format: ResponseFormat,
  results: Record<string, unknown>[],
): Record<string, unknown> {
  const _meta = { response_type: "Answer", response_format: format, version: NLWEB_VERSION };
  if (format === "conv_search") return { query_id: queryId, _meta, results };
  return {
    query_id: queryId,
    _meta,
    content: results.map((r) => ({ type: "text", text: `${r.name}: ${r.description ?? ""}` })),
    structuredData: results,
  };
}

/** The classic streamed answer: begin, one `result` message carrying the list, end. */
export function streamAnswer(
  c: Context,
  query: string,
  queryId: string,
  results: Record<string, unknown>[],
): Response {
  return streamEvents(c, [
    { message_type: "begin-nlweb-response", query_id: queryId, query },
    { message_type: "result", query_id: queryId, content: results },
    { message_type: "end-nlweb-response", query_id: queryId },
  ]);
}

/**
 * A v0.54 answer as events (the v0.54 HTTP binding, "Streaming": the events together deliver the
 * whole JSON structure, and one carries the meta block): the meta first, then the content, then
 * the meta again marked finished, as NLWeb's reference server ends its streams.
 */
export function answerEvents(answer: Record<string, unknown>): Record<string, unknown>[] {
  const { _meta, query_id, ...content } = answer;
  return [
    { _meta, query_id },
    content,
    { _meta: { ...(_meta as object), "nlweb/streaming_status": "finished" }, query_id },
  ];
}

/** Server-sent events, one `data:` line of JSON each. */
export function streamEvents(c: Context, events: Record<string, unknown>[]): Response {
  // The whole list is known before the first byte (one search), so the stream is one body.
  const body = events.map((m) => `data: ${JSON.stringify(m)}\n\n`).join("");
  c.header("Cache-Control", "no-cache");
  return c.body(body, 200, { "Content-Type": "text/event-stream; charset=utf-8" });
}

/**
 * The classic `streaming` parameter: on unless turned off (the NLWeb REST API's default).
 * Anything but a boolean spelling is refused, so a typo cannot silently pick a format.
 */
export function streamingParam(raw: string | null): boolean {
  if (raw === null) return true;
  const v = raw.toLowerCase();
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw new NlwebFailure(400, "INVALID_REQUEST", "streaming: true or false");
}
