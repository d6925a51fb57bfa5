/** Non-full outcomes of the access decision in their REST form (docs/SPEC.md "Errors"). */
import type { Context } from "hono";
import type { Article } from "../../../store/articles.ts";
import type { Publisher } from "../../../store/publishers.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import type { Decision } from "../../domain/licensing/mod.ts";
import { microsToCents } from "../../platform/money.ts";
import { REQUEST_VIA } from "../../domain/licensing/mod.ts";
import { licenseBlock } from "../../domain/reads/license_block.ts";
import { publisherUrls } from "../../platform/urls.ts";
import { articleRef, articleSummary } from "../../domain/reads/present.ts";

/** The REST response for a decision that does not serve the full body. */
export function outcomeResponse<E extends AppEnv>(
  c: Context<E>,
  ctx: { deps: AppDeps; publisher: Publisher; article: Article; decision: Decision },
): Response {
  const { deps, publisher, article, decision } = ctx;
  const license = licenseBlock(deps.config, publisher, decision);
  const message = decision.reason;
  const ref = articleRef(article);
  switch (decision.outcome) {
    case "license_limited":
      return c.json({
        status: "license_limited",
        message,
        article: { ...articleSummary(article), policy: decision.policy },
        license,
      });
    case "blocked":
      return c.json({ status: "blocked", message, article: ref });
    case "license_denied":
      return c.json({ status: "license_denied", message, article: ref, license }, 403);
    case "territory_blocked":
      return c.json({ status: "territory_blocked", message }, 451);
    case "payment_overdue":
      return c.json({
        status: "payment_overdue",
        message,
        invoiceNumber: decision.overdue!.invoiceNumber,
        invoiceUrl: decision.overdue!.url,
      }, 402);
    default: {
      // paywall_upsell (and payment_required, which is the landing path's): a priced read that
      // this anonymous caller has no free reads left for.
      const urls = publisherUrls(deps.config, publisher);
      return c.json({
        status: "payment_required",
        message,
        article: { ...articleSummary(article), policy: decision.policy },
        price: {
          usdCents: decision.pricingUsdCents.display,
          quoteUsdCents: decision.quote ? microsToCents(decision.quote.micros) : null,
        },
        signup: `${deps.config.baseUrl}/api/marketplace/signup`,
        subscribe: `${deps.config.baseUrl}/api/marketplace/licenses`,
        requestLicense: REQUEST_VIA,
        termsUrl: urls.terms,
        license,
      }, 402);
    }
  }
}
