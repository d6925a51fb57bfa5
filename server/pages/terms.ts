/** GET /license/<publisherId> (mounted at /license): the public terms page every license block links to. */
import { Hono } from "hono";
import { getPublisher } from "../../store/publishers.ts";
import { listRules } from "../../store/rules.ts";
import { renderPage } from "../../ui/layout.tsx";
import { TermsPage } from "../../ui/terms.tsx";
import type { AppDeps, AppEnv } from "../deps.ts";
import { notFound } from "../platform/errors.ts";
import { microsToCents, pricesInCents, RATE_CARD } from "../platform/money.ts";
import { publicRights, REQUEST_VIA } from "../domain/licensing/mod.ts";
import { CSP, pageHeaders } from "../platform/security_headers.ts";
import { ruleSentences } from "./terms_rules.ts";
import { publisherUrls } from "../platform/urls.ts";

/** The terms page route. */
export function termsRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", pageHeaders(deps.config, CSP.document));
  app.get("/:publisherId", async (c) => {
    const p = await getPublisher(deps.store.db, c.req.param("publisherId"));
    if (!p) throw notFound("Publisher");
    const e = p.enterpriseTerms;
    const rules = await listRules(deps.store.db, p.id);
    const html = renderPage(TermsPage({
      publisher: p,
      rights: publicRights(p.rights),
      pricesCents: pricesInCents(p.pricesMicros),
      rules: ruleSentences(rules, deps.clock.now()),
      rateCard: {
        base: microsToCents(RATE_CARD.base),
        summarization: microsToCents(RATE_CARD.summarization),
        display: microsToCents(RATE_CARD.display),
        rag: microsToCents(RATE_CARD.rag),
      },
      enterprise: e
        ? {
          useCases: e.useCases,
          monthlyUsdCents: microsToCents(e.monthlyPriceMicros),
          conditions: e.conditions,
        }
        : null,
      mcpUrl: publisherUrls(deps.config, p).mcp,
      requestVia: REQUEST_VIA,
    }));
    return c.html(html);
  });
  return app;
}
