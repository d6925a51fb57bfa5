/**
 * The extraction thread (extract_thread.ts): parses one page at a time with extractArticle, so
 * linkedom and Readability run beside the serving thread instead of on it. A page it cannot
 * extract is answered with the error's message.
 */
/// <reference lib="deno.worker" />
import { extractArticle, type Extracted } from "./extract.ts";

/** One page to extract. */
export interface ExtractJob {
  id: number;
  html: string;
  url: string;
}
/** The page's extraction, or why there is none; `ready` once the thread has loaded. */
export type ExtractReply =
  | { id: number; extracted: Extracted }
  | { id: number; error: string }
  | { ready: true };

self.onmessage = (e: MessageEvent<ExtractJob>) => {
  const { id, html, url } = e.data;
  let reply: ExtractReply;
  try {
    reply = { id, extracted: extractArticle(html, url) };
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  self.postMessage(reply);
};

// Loading linkedom and Readability takes a while on a busy machine: no page's deadline runs
// until this arrives.
self.postMessage({ ready: true } satisfies ExtractReply);
