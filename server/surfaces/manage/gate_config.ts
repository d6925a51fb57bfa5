/**
 * GET /api/publisher/gate/config (issue 33; docs/decisions/crawler-gate.md): configuration the
 * publisher copies to put Folio's crawler gate in front of its own site, for its verified domain:
 * nginx, Caddy and Traefik, each with what it does when Folio is down, and the reverse-proxy
 * setting for a publisher with no proxy of its own.
 */
import { Hono } from "hono";
import type { AppDeps } from "../../deps.ts";
import { GATE_PATHS, nginxConfig } from "../../domain/crawlers/proxy_config.ts";
import { caddyConfig, traefikConfig } from "../../domain/crawlers/proxy_config_forward_auth.ts";
import { AppError } from "../../platform/errors.ts";
import { parseInput } from "../../platform/validate.ts";
import type { ManageEnv } from "./auth.ts";
import { gateConfigQuerySchema } from "./gate_schemas.ts";

/** Where a configuration sends people when the publisher names no origin. */
const EXAMPLE_ORIGIN = "http://127.0.0.1:8080";

export function gateConfigRoutes(deps: AppDeps): Hono<ManageEnv> {
  const app = new Hono<ManageEnv>();
  app.get("/gate/config", (c) => {
    const q = parseInput(
      gateConfigQuerySchema,
      Object.fromEntries(new URL(c.req.url).searchParams),
    );
    const p = c.get("publisher");
    if (!p.customDomain) {
      throw new AppError(
        409,
        "domain_not_verified",
        "The gate finds the publisher by its verified custom domain: set customDomain and verify it first.",
      );
    }
    const folioUrl = new URL(deps.config.baseUrl).origin;
    const originUrl = q.origin ? new URL(q.origin).origin : p.originUrl ?? EXAMPLE_ORIGIN;
    const site = { domain: p.customDomain, folioUrl, originUrl, whenDown: q.whenDown };
    c.header("Cache-Control", "no-store");
    return c.json({
      domain: p.customDomain,
      whenDown: q.whenDown,
      originUrl,
      endpoints: {
        nginx: `${folioUrl}${GATE_PATHS.nginx}`,
        forwardAuth: `${folioUrl}${GATE_PATHS.forwardAuth}`,
      },
      nginx: nginxConfig(site),
      caddy: caddyConfig(site),
      traefik: traefikConfig(site),
      reverseProxy: {
        originUrl: p.originUrl,
        enabled: p.originUrl !== null,
        steps: [
          `Set originUrl to where your site answers (PATCH /api/publisher/settings {"originUrl": "${originUrl}"}), reachable from Folio on a public address.`,
          `Point ${p.customDomain} at Folio (${
            new URL(folioUrl).host
          }): Folio then gates crawlers and streams every admitted request to the origin, its status and caching headers kept.`,
          "Folio keeps answering /license.xml and /ask on the domain; everything else, robots.txt included, is the origin's.",
        ],
        whenFolioDown:
          "Folio is then the site's front door: when it is down the site is down for everyone. Use a proxy of your own (nginx, Caddy, Traefik above) to choose what happens instead.",
      },
    });
  });
  return app;
}
