/** Shared by the custom domain tests: stand-in DNS and fetcher, the settings and verify calls. */
import assert from "node:assert/strict";
import { json, type TestFolio } from "./helpers.ts";
import { bearer, sendJson } from "./manage_helpers.ts";
import { loopbackFetcher } from "./fixtures/gated_site.ts";

// deno-lint-ignore no-explicit-any
export type Doc = Record<string, any>;

export const DOMAIN = "news.acme.org";

/** DNS as tests stand it in: TXT answers per name; every other name has none. */
export function txt(folio: TestFolio, table: Record<string, string[]>): string[] {
  const asked: string[] = [];
  folio.deps.resolveTxt = (name) => {
    asked.push(name);
    return Promise.resolve(table[name] ?? []);
  };
  return asked;
}

/** A guarded fetcher for which no name resolves (the HTTP token is never found). */
export function noHttp(folio: TestFolio) {
  folio.deps.fetcher = loopbackFetcher({
    retries: 0,
    resolve: (name) => Promise.reject(new Error(`${name}: NXDOMAIN`)),
  });
}

export async function settings(folio: TestFolio, key: string): Promise<Doc> {
  const res = await folio.request("/api/publisher/settings", { headers: bearer(key) });
  assert.equal(res.status, 200);
  return await json<Doc>(res);
}

export async function claim(folio: TestFolio, key: string, domain: string | null) {
  return await sendJson(folio, "PATCH", "/api/publisher/settings", {
    customDomain: domain,
    toggles: { publicRest: true, a2a: true },
  }, bearer(key));
}

export async function verify(folio: TestFolio, key: string) {
  return await sendJson(folio, "POST", "/api/publisher/domain/verify", {}, bearer(key));
}

/** The title of the host's front page: the publisher's site, or the platform's ("Folio"). */
export async function siteTitle(folio: TestFolio): Promise<string | undefined> {
  const res = await folio.request("/", { host: DOMAIN });
  return /<title>([^<]*)<\/title>/.exec(await res.text())?.[1];
}

/** REST search on the domain: 200 only once it routes to a publisher. */
export async function served(folio: TestFolio, host = DOMAIN): Promise<number> {
  const res = await folio.request("/api/v1/articles/search?q=solar", { host });
  await res.body?.cancel();
  return res.status;
}

/** The A2A card and the MCP endpoint on the domain: their statuses (404 while not routed). */
export async function agentSurfaces(folio: TestFolio, host = DOMAIN): Promise<number[]> {
  const card = await folio.request("/.well-known/agent-card.json", { host });
  const mcp = await folio.request("/mcp", {
    host,
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "domain-test", version: "1" },
      },
    }),
  });
  await card.body?.cancel();
  await mcp.body?.cancel();
  return [card.status, mcp.status];
}
