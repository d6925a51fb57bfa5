/**
 * The rights table test's callers and surfaces (tests/rights_table_test.ts): who holds what, the
 * table as docs/decisions/licensing.md writes it, and what each surface shows.
 */
import { capitalized, useInWords } from "../server/platform/words.ts";
import { message, post as a2aPost, stateOf, taskOf } from "../server/surfaces/a2a/_test_utils.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { insertLicense } from "../store/licenses.ts";
import { USE_CASES, type UseCase } from "../store/vocabulary.ts";
import type { portalSignUp } from "./buyer_helpers.ts";
import { textOf } from "./console_helpers.ts";
import { json, type TestFolio } from "./helpers.ts";
import { mcpTool } from "./mcp_helpers.ts";

export type Rights = Record<UseCase, boolean>;
// deno-lint-ignore no-explicit-any
type Any = any;

export const HOST = "demo.localhost";
export const QUERY = "heat pumps";

/** Who asks, and what each holds with the demo publisher (kind: how it was licensed). */
export const HOLDERS = [
  { name: "anonymous", kind: null, uses: [] },
  { name: "buyer holding nothing", kind: null, uses: [] },
  { name: "subscriber", kind: "subscription", uses: ["summarization", "display", "rag"] },
  { name: "enterprise licensee", kind: "enterprise", uses: ["display", "rag"] },
  { name: "approved fine_tuning request", kind: "request", uses: ["fine_tuning"] },
] as const;

/** The table (docs/decisions/licensing.md): the default grants all, a license in force its holder. */
export function expected(defaults: Rights, held: readonly UseCase[]): Rights {
  return Object.fromEntries(USE_CASES.map((u) => [u, defaults[u] || held.includes(u)])) as Rights;
}

export function words(r: Rights) {
  return Object.fromEntries(USE_CASES.map((u) => [u, r[u] ? "granted" : "denied"]));
}

/** Every combination of the four default rights. */
export function allDefaults(): Rights[] {
  return Array.from(
    { length: 16 },
    (_, mask) =>
      Object.fromEntries(USE_CASES.map((u, i) => [u, (mask & (1 << i)) !== 0])) as Rights,
  );
}

export interface Caller {
  name: string;
  uses: readonly UseCase[];
  headers: Record<string, string>;
}

export async function setUp(folio: TestFolio) {
  const db = folio.store.db;
  // Prices and meters are not rights: every article free, so what differs is only what is held.
  await db.execute("UPDATE articles SET policy = 'OBSERVE', price_micros = NULL");
  const callers: Caller[] = [];
  for (const [i, h] of HOLDERS.entries()) {
    if (i === 0) {
      callers.push({ name: h.name, uses: h.uses, headers: {} });
      continue;
    }
    const { apiKey, buyerId } = await createBuyer(db, {
      name: h.name,
      email: `holder${i}@example.test`,
    }, { now: folio.clock.now() });
    if (h.kind) {
      await insertLicense(db, buyerId, {
        id: `lic_table_${i}`,
        publisherId: "pub_demo",
        kind: h.kind,
        useCases: [...h.uses],
        monthlyFeeMicros: 0,
        state: "active",
        now: folio.clock.now(),
      });
    }
    callers.push({ name: h.name, uses: h.uses, headers: { authorization: `Bearer ${apiKey}` } });
  }
  const [article] = (await db.execute(
    "SELECT id FROM articles WHERE publisher_id = 'pub_demo' AND kind = 'article' ORDER BY id",
  )).rows.map((r) => String(r.id));
  return { callers, article };
}

/** What the public documents say anyone is granted. */
export async function publicSurfaces(
  folio: TestFolio,
  portal: Awaited<ReturnType<typeof portalSignUp>>,
) {
  const catalog = await json<Any>(await folio.request("/api/marketplace/catalog"));
  const entry = catalog.publishers.find((p: Any) => p.publisherId === "pub_demo");
  const card = await json<Any>(await folio.request("/api/publishers/pub_demo/card"));
  const terms = await (await folio.request("/license/pub_demo")).text();
  const robots = await (await folio.request("/robots.txt", { host: HOST })).text();
  const xml = await (await folio.request("/license.xml", { host: HOST })).text();
  const page = textOf((await portal.visitor.get("/buyer/catalog/pub_demo")).html);
  const termsRow = (label: string) => {
    const m = terms.match(new RegExp(`<td>${label}[^<]*</td><td>(granted|denied)</td>`));
    return m?.[1] === "granted";
  };
  const signal = robots.match(
    /Content-Signal: search=(yes|no), ai-input=(yes|no), ai-train=(yes|no)/,
  )!;
  // The site-wide <content>'s first license: what a reader may do with a read.
  const site = xml.slice(xml.indexOf("<content"), xml.indexOf("</license>"));
  const prohibited = site.match(/<prohibits type="usage">([^<]*)</)?.[1].split(" ") ?? [];
  return {
    catalog: entry.rights,
    card: card.license.rights,
    terms: words({
      summarization: termsRow("Summarization"),
      display: termsRow("Full display"),
      rag: termsRow("RAG retrieval"),
      fine_tuning: termsRow("Fine-tuning"),
    }),
    portal: Object.fromEntries(
      // The portal names each use in words (server/platform/words.ts).
      USE_CASES.map((u) => [
        u,
        page.includes(`${capitalized(useInWords(u))} yes `) ? "granted" : "denied",
      ]),
    ),
    robots: { search: signal[1], aiInput: signal[2], aiTrain: signal[3] },
    xmlProhibits: prohibited,
  };
}

/** The license block and the read outcome of one OBSERVE article, on REST, MCP and A2A. */
export async function reads(
  folio: TestFolio,
  caller: Caller,
  id: string,
  extra: Record<string, string>,
) {
  const headers = { ...caller.headers, ...extra };
  const rest = await folio.request(`/api/v1/articles/${id}?last_user_prompt=table`, {
    host: HOST,
    headers,
  });
  const restBody = await json<Any>(rest);
  const mcp = await mcpTool(folio, "get_article", { url_or_id: id }, headers);
  const a2a = await a2aPost(
    folio,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: { message: message("1.0", { data: { skill: "get_article", url_or_id: id } }) },
    }),
    { headers },
  );
  const task = taskOf(a2a.body.result);
  const statusData = task.status.message.parts.find((p: Any) => p.data)?.data ?? {};
  const artifactData = task.artifacts?.[0]?.parts.find((p: Any) => p.data)?.data ?? {};
  return {
    status: {
      rest: restBody.status ?? "full",
      mcp: mcp.structuredContent.status,
      a2a: statusData.status === "ok" ? "full" : statusData.status,
    },
    license: {
      rest: restBody.license?.rights ?? null,
      mcp: mcp.structuredContent.license?.rights ?? null,
      a2a: (artifactData.license ?? statusData.license)?.rights ?? null,
    },
  };
}

/** Whether search, passages and listings show this caller anything, on each surface. */
export async function finds(
  folio: TestFolio,
  caller: Caller,
  extra: Record<string, string>,
  query = QUERY,
) {
  const headers = { ...caller.headers, ...extra };
  const q = encodeURIComponent(query);
  const rest = await folio.request(`/api/v1/articles/search?query=${q}`, { host: HOST, headers });
  const restBody = await json<Any>(rest);
  const passages = await folio.request(`/api/v1/passages/search?query=${q}`, {
    host: HOST,
    headers,
  });
  const passagesBody = await json<Any>(passages);
  const mcp = await mcpTool(folio, "search_articles", { query }, headers);
  const mcpPassages = await mcpTool(folio, "retrieve_passages", { query }, headers);
  const recent = await mcpTool(folio, "list_recent", { limit: 5 }, headers);
  const a2a = await a2aPost(
    folio,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: { message: message("1.0", { data: { skill: "search_articles", query } }) },
    }),
    { headers },
  );
  const task = taskOf(a2a.body.result);
  const a2aCount = task.artifacts?.[0]?.parts.find((p: Any) => p.data)?.data.count ?? 0;
  return {
    statuses: {
      rest: rest.status,
      passages: passages.status,
      mcp: mcp.isError ? mcp.structuredContent.status : "ok",
      a2a: stateOf(a2a.body.result),
    },
    found: {
      rest: (restBody.count ?? 0) > 0,
      passages: (passagesBody.count ?? 0) > 0,
      mcp: (mcp.structuredContent?.count ?? 0) > 0,
      mcpPassages: (mcpPassages.structuredContent?.count ?? 0) > 0,
      list: !/^No /.test(recent.content[0].text),
      a2a: a2aCount > 0,
    },
  };
}

export function outcomeFor(r: Rights): string {
  return r.display ? "full" : r.summarization ? "license_limited" : "license_denied";
}
