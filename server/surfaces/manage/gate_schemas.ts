/** The shapes of GET /api/publisher/gate/config (gate_config.ts), for the route and the OpenAPI document. */
import { z } from "zod";
import { WHEN_DOWN, type WhenDown } from "../../domain/crawlers/proxy_config.ts";

/** The query: what the proxy does when Folio is down, and where the publisher's origin is. */
export const gateConfigQuerySchema = z.strictObject({
  whenDown: z.enum(WHEN_DOWN as [WhenDown, ...WhenDown[]]).default("refuse-crawlers"),
  origin: z.string().max(2048).refine((s) => {
    try {
      const u = new URL(s);
      return /^https?:$/.test(u.protocol) && !u.username && !u.password && u.pathname === "/" &&
        !u.search && !u.hash;
    } catch {
      return false;
    }
  }, { error: "must be an http(s) origin such as http://127.0.0.1:8080" }).optional(),
});

const proxySchema = z.object({
  file: z.string().describe("Where the text goes (a conf.d file, the Caddyfile, a dynamic file)"),
  config: z.string(),
  whenFolioDown: z.string(),
});

/** The answer. */
export const gateConfigSchema = z.object({
  domain: z.string(),
  whenDown: z.enum(WHEN_DOWN as [WhenDown, ...WhenDown[]]),
  originUrl: z.string().describe("The origin the configurations pass people to"),
  endpoints: z.object({ nginx: z.string(), forwardAuth: z.string() }),
  nginx: proxySchema,
  caddy: proxySchema,
  traefik: proxySchema,
  reverseProxy: z.object({
    originUrl: z.string().nullable().describe("The setting (PATCH /api/publisher/settings)"),
    enabled: z.boolean(),
    steps: z.array(z.string()),
    whenFolioDown: z.string(),
  }),
});
