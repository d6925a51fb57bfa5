/** The public URLs of a publisher's surfaces, derived from the platform base URL. */
import type { Publisher } from "../../store/publishers.ts";
import type { Config } from "./config.ts";

/** Where a publisher's surfaces live. */
export interface PublisherUrls {
  /** Origin of the publisher's custom domain (same scheme and port as the platform), or null. */
  host: string | null;
  mcp: string;
  /** The same MCP server at `/mcp` on the publisher's custom domain, or null without one. */
  mcpHost: string | null;
  rest: string | null;
  a2a: string;
  agentCard: string;
  card: string;
  terms: string;
}

/**
 * Where the publisher's site pages live (server/surfaces/landing/): its custom domain's origin,
 * else `<base>/read/<publisherId>` on the platform, so a book chapter always has a public URL.
 */
export function siteOrigin(config: Pick<Config, "baseUrl">, p: Publisher): string {
  return publisherUrls(config, p).host ?? `${config.baseUrl}${platformSitePath(p.id)}`;
}

/** The path prefix of a publisher's site pages on the platform's own host. */
export function platformSitePath(publisherId: string): string {
  return `/read/${encodeURIComponent(publisherId)}`;
}

/**
 * Kept per publisher object the configuration cache handed out (frozen, store/config_cache.ts):
 * every read's license block names the terms URL, and the custom origin parses a URL.
 */
const kept = new WeakMap<Publisher, { base: string; urls: PublisherUrls }>();

/** The URLs of `p`'s surfaces under `config.baseUrl`. */
export function publisherUrls(config: Pick<Config, "baseUrl">, p: Publisher): PublisherUrls {
  const hit = kept.get(p);
  if (hit && hit.base === config.baseUrl) return hit.urls;
  const urls = Object.freeze(urlsOf(config.baseUrl, p));
  if (Object.isFrozen(p)) kept.set(p, { base: config.baseUrl, urls });
  return urls;
}

function urlsOf(base: string, p: Publisher): PublisherUrls {
  const host = p.customDomain ? customOrigin(base, p.customDomain) : null;
  return {
    host,
    mcp: `${base}/api/mcp/${p.id}`,
    mcpHost: host ? `${host}/mcp` : null,
    rest: host ? `${host}/api/v1` : null,
    a2a: host ? `${host}/a2a` : `${base}/api/a2a/${p.id}`,
    agentCard: host
      ? `${host}/.well-known/agent-card.json`
      : `${base}/.well-known/agent-card.json?slug=${encodeURIComponent(p.slug)}`,
    card: `${base}/api/publishers/${p.id}/card`,
    terms: `${base}/license/${p.id}`,
  };
}

function customOrigin(base: string, domain: string): string {
  const u = new URL(base);
  u.hostname = domain;
  return u.origin;
}
