/**
 * Synthetic probes (docs/SPEC.md "Limits": every 5 minutes): real round trips through the public
 * surfaces, the way an agent makes them: health, then per publisher REST search, MCP initialize +
 * search_articles, and the A2A card, each where the publisher offers it. A round's requests carry
 * a short-lived token (only its hash is stored) so they stay out of the call log and the meters.
 */
import { LATEST_PROTOCOL_VERSION } from "../mcp_versions.ts";
import type { Client } from "../../../store/db.ts";
import { listPublishers, type Publisher } from "../../../store/publishers.ts";
import {
  dropProbeToken,
  insertProbeRound,
  issueProbeToken,
  type ProbeCheck,
  probeTokenLive,
} from "../../../store/status.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Config } from "../../platform/config.ts";
import { offered, openToAnonymous } from "../licensing/reach.ts";
import { hashSecret, newSecret } from "../../platform/secrets.ts";
import { publisherUrls } from "../../platform/urls.ts";

/** The header that marks a probe round's requests. */
export const PROBE_HEADER = "x-folio-probe";
/** How often the cron runs a round (docs/SPEC.md "Limits"). */
export const PROBE_INTERVAL_MINUTES = 5;
/** A check slower than this failed, whatever it answered (docs/TEST-PLAN.md section 6). */
export const CHECK_TIMEOUT_MS = 2000;
/** Publishers probed per round, in turn, so a round stays short on a large platform. */
export const PUBLISHERS_PER_ROUND = 25;

/** Sends one request to the service under test (its own listener, or the app in tests). */
export type ProbeSend = (url: string, init: RequestInit) => Promise<Response>;

/**
 * Sends to the service listening at `address`, whatever host a URL names: the request keeps its
 * URL's host (so it is routed as the public request would be) but connects to the listener, over
 * plain HTTP as the listener speaks (TLS, if any, ends in front of it).
 */
export function listenerSender(address: { hostname: string; port: number }) {
  const client = Deno.createHttpClient({
    proxy: { transport: "tcp", hostname: address.hostname, port: address.port },
  });
  const send: ProbeSend = (url, init) =>
    // deno-lint-ignore folio/network-through-fetcher -- the service probing its own listener, not a fetch of user-supplied URLs
    fetch(url.replace(/^https:/, "http:"), { ...init, client, redirect: "manual" });
  return { send, close: () => client.close() };
}

/** What a round needs. */
export interface ProbeDeps {
  db: Client;
  clock: Clock;
  config: Pick<Config, "baseUrl">;
}

/** Runs one probe round now, records it, and returns its checks. */
export async function runProbeRound(
  deps: ProbeDeps,
  send: ProbeSend,
): Promise<{ at: Date; checks: ProbeCheck[] }> {
  const at = deps.clock.now();
  const token = newSecret("probe_");
  const hash = await hashSecret(token);
  await issueProbeToken(deps.db, hash, new Date(at.getTime() + 10 * 60_000), at);
  try {
    const marked: ProbeSend = (url, init) =>
      send(url, {
        ...init,
        headers: { ...init.headers as Record<string, string>, [PROBE_HEADER]: token },
        signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      });
    const checks = [await check("health", null, () => health(deps, marked))];
    for (const p of inTurn(await listPublishers(deps.db), at)) {
      const urls = publisherUrls(deps.config, p);
      if (urls.rest && openToAnonymous(p, "rest")) {
        checks.push(await check("rest", p.id, () => restSearch(urls.rest!, marked)));
      }
      checks.push(await check("mcp", p.id, () => mcp(p, urls.mcp, marked)));
      if (offered(p, "a2a")) {
        checks.push(await check("a2a", p.id, () => agentCard(urls.agentCard, marked)));
      }
    }
    await insertProbeRound(deps.db, at, checks);
    return { at, checks };
  } finally {
    await dropProbeToken(deps.db, hash);
  }
}

/** The publishers of this round: all of them, or the next PUBLISHERS_PER_ROUND in turn. */
function inTurn(all: Publisher[], at: Date): Publisher[] {
  if (all.length <= PUBLISHERS_PER_ROUND) return all;
  const round = Math.floor(at.getTime() / (PROBE_INTERVAL_MINUTES * 60_000));
  const start = (round * PUBLISHERS_PER_ROUND) % all.length;
  return [...all, ...all].slice(start, start + PUBLISHERS_PER_ROUND);
}

/** True when a request carries the token of a round in progress (one lookup, only when marked). */
export async function isProbeRequest(
  deps: { db: Client; clock: Clock },
  header: string | undefined,
): Promise<boolean> {
  if (!header || !header.startsWith("probe_") || header.length > 100) return false;
  return await probeTokenLive(deps.db, await hashSecret(header), deps.clock.now());
}

/** A failed expectation, worded for the status page. */
class Unexpected extends Error {}

async function check(
  surface: ProbeCheck["surface"],
  publisherId: string | null,
  run: () => Promise<{ detail: string | null; dbLatencyMs?: number }>,
): Promise<ProbeCheck> {
  const started = performance.now();
  try {
    const seen = await run();
    const latencyMs = performance.now() - started;
    if (latencyMs > CHECK_TIMEOUT_MS) {
      return { surface, publisherId, ok: false, latencyMs, detail: `slower than 2 s` };
    }
    return { surface, publisherId, ok: true, latencyMs, ...seen };
  } catch (err) {
    const latencyMs = performance.now() - started;
    const detail = err instanceof Unexpected
      ? err.message
      : err instanceof DOMException && err.name === "TimeoutError"
      ? "no answer within 2 s"
      : `request failed: ${err instanceof Error ? err.message : String(err)}`;
    return { surface, publisherId, ok: false, latencyMs, detail };
  }
}

async function expectJson(res: Response, status: number, what: string): Promise<unknown> {
  const text = await res.text();
  if (res.status !== status) {
    throw new Unexpected(`${what} answered HTTP ${res.status}, expected ${status}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new Unexpected(`${what} answered HTTP ${status} without JSON`);
  }
}

async function health(deps: ProbeDeps, send: ProbeSend) {
  const body = await expectJson(
    await send(`${deps.config.baseUrl}/api/health`, {}),
    200,
    "/api/health",
  ) as { ok?: unknown; dbLatencyMs?: unknown };
  if (body.ok !== true) throw new Unexpected("/api/health did not say ok");
  return { detail: null, dbLatencyMs: Number(body.dbLatencyMs) };
}

async function restSearch(rest: string, send: ProbeSend) {
  const body = await expectJson(
    await send(`${rest}/articles/search?q=news&limit=1`, {}),
    200,
    "REST search",
  ) as { results?: unknown };
  if (!Array.isArray(body.results)) throw new Unexpected("REST search answered without results");
  return { detail: null };
}

/** initialize, initialized, tools/call search_articles, then the session is closed. */
async function mcp(p: Publisher, url: string, send: ProbeSend) {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const rpc = (body: unknown, extra: Record<string, string> = {}) =>
    send(url, { method: "POST", headers: { ...headers, ...extra }, body: JSON.stringify(body) });
  const init = await rpc({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "folio-probe", version: "1" },
    },
  });
  if (!openToAnonymous(p, "mcp")) {
    // Require auth is on: the healthy answer is the OAuth challenge that starts an install.
    await init.body?.cancel();
    if (init.status !== 401 || !init.headers.get("www-authenticate")) {
      throw new Unexpected(`MCP initialize answered HTTP ${init.status}, expected 401`);
    }
    return { detail: "require auth: answered the OAuth challenge" };
  }
  const session = init.headers.get("mcp-session-id");
  await expectJson(init, 200, "MCP initialize");
  if (!session) throw new Unexpected("MCP initialize answered without a session id");
  const common = { "mcp-session-id": session, "mcp-protocol-version": LATEST_PROTOCOL_VERSION };
  try {
    const notified = await rpc({ jsonrpc: "2.0", method: "notifications/initialized" }, common);
    await notified.body?.cancel();
    const called = await expectJson(
      await rpc({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "search_articles", arguments: { query: "news", limit: 1 } },
      }, common),
      200,
      "MCP tools/call",
    ) as { result?: { isError?: boolean }; error?: { message?: string } };
    if (!called.result || called.result.isError) {
      throw new Unexpected(
        `MCP search_articles failed: ${called.error?.message ?? "tool error"}`.slice(0, 200),
      );
    }
    return { detail: null };
  } finally {
    const closed = await send(url, { method: "DELETE", headers: common }).catch(() => null);
    await closed?.body?.cancel();
  }
}

async function agentCard(url: string, send: ProbeSend) {
  const card = await expectJson(await send(url, {}), 200, "A2A agent card") as { name?: unknown };
  if (typeof card.name !== "string") throw new Unexpected("A2A agent card has no name");
  return { detail: null };
}
