/**
 * The publisher host's machine-readable terms: `/robots.txt` (RFC 9309, with RSL's `License:`
 * line and Cloudflare's content signals) and `/license.xml` (RSL 1.0), both generated from the
 * publisher's settings, rights, prices and content rules, so they never disagree with what the
 * pages charge.
 */
import { olpServerOf } from "../../domain/rsl/license_tokens.ts";
import type { Handler } from "hono";
import { ownTermsPaths } from "../../../store/articles.ts";
import { listRules } from "../../../store/rules.ts";
import type { AppDeps } from "../../deps.ts";
import type { PublishedEnv } from "../../platform/envelope.ts";
import { PLATFORM_FEE_BPS } from "../../platform/money.ts";
import { CRAWLERS } from "../../domain/crawlers/crawlers.ts";
import { brandOf } from "./pages.ts";
import { robotsTxt } from "./robots_txt.ts";
import { settingFor } from "../../domain/crawlers/setting.ts";
import {
  crawlTermsOf,
  RSL_CONTENT_TYPE,
  rslDocument,
  type RslInput,
  rslTree,
  rslXml,
} from "./rsl.ts";
import { publicRights } from "../../domain/licensing/rights.ts";
import { LicenseView } from "../../../ui/site/license.tsx";
import { renderSite } from "../../../ui/site/mod.ts";

/** GET /robots.txt on the publisher's host. */
export function robotsTxtRoute(deps: AppDeps): Handler<PublishedEnv> {
  return (c) => {
    const p = c.get("publisher");
    const tokensWith = (action: "block" | "charge") =>
      CRAWLERS.filter((cr) => settingFor(p, cr) === action).flatMap((cr) => cr.robotsTokens);
    // What anyone is granted, by the one rights table (docs/decisions/licensing.md).
    const rights = publicRights(p.rights);
    const body = robotsTxt({
      licenseXmlUrl: brandOf(deps, p, c.get("siteBase") ?? "").licenseXmlUrl,
      blocked: tokensWith("block"),
      charged: p.agentPayments.enabled ? tokensWith("charge") : [],
      // Nothing beyond the crawler settings: every site offers NLWeb `/ask`, and a Disallow would
      // tell the agents it is for that they may not call it.
      disallowPaths: [],
      signals: {
        search: rights.rag,
        aiInput: rights.display || rights.summarization || rights.rag,
        aiTrain: rights.fine_tuning,
      },
    });
    c.header("Cache-Control", "public, max-age=300");
    return c.text(body);
  };
}

/**
 * A browser's navigation to the address (Fetch Metadata's `Sec-Fetch-Dest: document`, sent by
 * browsers only, with HTML asked for); an agent that names RSL's type gets it whatever it sends.
 */
function readsInBrowser(dest: string | undefined, accept: string | undefined): boolean {
  return dest === "document" && !!accept && /\btext\/html\b/.test(accept) &&
    !accept.includes(RSL_CONTENT_TYPE);
}

/** GET /license.xml on the publisher's host. */
export function licenseXmlRoute(deps: AppDeps): Handler<PublishedEnv> {
  return async (c) => {
    const p = c.get("publisher");
    const [rules, articles] = await Promise.all([
      listRules(deps.store.db, p.id),
      ownTermsPaths(deps.store.db, p.id, { limit: 1000 }),
    ]);
    const brand = brandOf(deps, p, c.get("siteBase") ?? "");
    const input: RslInput = {
      publisherName: p.name,
      origin: brand.origin,
      termsUrl: brand.termsUrl,
      licenseServer: `${deps.config.baseUrl}/buyer`,
      olpServer: olpServerOf(deps.config.baseUrl),
      rights: publicRights(p.rights),
      pricesMicros: p.pricesMicros,
      crawl: crawlTermsOf(p.agentPayments),
      platformFeeBps: PLATFORM_FEE_BPS,
      rules,
      articles,
    };
    c.header("Vary", "Accept, Sec-Fetch-Dest");
    c.header("Cache-Control", "public, max-age=300");
    // A person opening it in a browser reads it in words (issue 42); agents, validators and
    // scripts (no browser navigation) get the RSL document as RSL 1.0 §2.2 types it.
    if (readsInBrowser(c.req.header("sec-fetch-dest"), c.req.header("accept"))) {
      const { header, root } = rslTree(input);
      const page = LicenseView({
        brand,
        root,
        notes: header,
        xml: rslXml(root),
        licenseXmlUrl: brand.licenseXmlUrl,
      });
      return c.html(renderSite(page));
    }
    c.header("Content-Type", `${RSL_CONTENT_TYPE}; charset=utf-8`);
    return c.body(rslDocument(input));
  };
}
