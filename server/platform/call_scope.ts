/**
 * What one agent-surface request read, gathered while it runs: the read path notes the article it
 * decided about (server/domain/reads/read_article.ts), and the call log writes it beside the call
 * (`callLogged()` in envelope.ts), so the console can show which page each call read (issue 34)
 * without every surface passing it along. The slot lives in an AsyncLocalStorage scope that
 * `callLogged()` opens per request; outside one, noting does nothing.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** The request's slot: the first article it read, or null. */
export interface CallScope {
  articleId: string | null;
}

const scope = new AsyncLocalStorage<CallScope>();

/** An empty slot, to run a request (or one MCP tool call) in. */
export function callScope(): CallScope {
  return { articleId: null };
}

/** Runs `fn` with `slot` as the current request's; what `fn` reads is noted in it. */
export function inCallScope<T>(slot: CallScope, fn: () => Promise<T>): Promise<T> {
  return scope.run(slot, fn);
}

/** Notes the article the current request read; a call that reads several keeps the first. */
export function noteArticleRead(articleId: string): void {
  const slot = scope.getStore();
  if (slot && slot.articleId === null) slot.articleId = articleId;
}
