/**
 * The access decision in A2A form: which task state, which status message and which artifacts
 * (docs/DESIGN.md §5 outcomes; A2A v1.0 §4.1.3 states). Every status message carries a data part with
 * the REST status value (docs/SPEC.md "Errors") so an agent can branch on it without parsing prose;
 * the status message's text is always `decision.reason` (server/domain/licensing/reasons.ts):
 *   full → completed (artifact: article + license block);
 *   license_limited → completed (artifact: summary + license block; message says cite the URL);
 *   blocked, license_denied, territory_blocked → rejected (terminal: asking again changes nothing);
 *   payment_overdue → rejected (a suspended buyer: the data part names the invoice and its URL);
 *   paywall_upsell / payment_required → auth-required (interrupted: a buyer key, i.e. credentials,
 *     is what unlocks the read; the data part carries the price, signup and subscribe URLs and
 *     how to resend);
 *   unknown article → failed with status article_not_found.
 */
import type { Article } from "../../../store/articles.ts";
import type { Publisher } from "../../../store/publishers.ts";
import type { Config } from "../../platform/config.ts";
import type { Decision } from "../../domain/licensing/mod.ts";
import { microsToCents } from "../../platform/money.ts";
import { receiptFields } from "../../domain/billing/receipts.ts";
import { reasons, REQUEST_VIA } from "../../domain/licensing/mod.ts";
import { licenseBlock } from "../../domain/reads/license_block.ts";
import type { SearchFound } from "../../domain/reads/search.ts";
import { articleFull, articleRef, articleSummary } from "../../domain/reads/present.ts";
import { publisherUrls } from "../../platform/urls.ts";
import type { StateName } from "./states.ts";
import { plural } from "../../platform/words.ts";

/** An artifact to attach: a readable text part and a structured data part. */
export interface ArtifactOut {
  name: string;
  description: string;
  text: string;
  data: Record<string, unknown>;
}

/** The end of a skill run. */
export interface SkillOutcome {
  state: StateName;
  /** The status message an agent reads. */
  text: string;
  /** Machine-readable status (`status` is the REST status value, or "ok"). */
  data: Record<string, unknown>;
  artifacts: ArtifactOut[];
}

/**
 * search_articles: completed with the results as the artifact, and the count of hits withheld in
 * the caller's region when there are any; rejected territory_blocked when a territory rule
 * withholds everything the query could reach (docs/SPEC.md "Errors": 451).
 */
export function searchOutcome(
  publisher: Pick<Publisher, "name">,
  found: Pick<SearchFound, "mode" | "hits" | "withheld" | "territory">,
): SkillOutcome {
  if (found.territory) {
    return rejectedLike("rejected", found.territory, { status: "territory_blocked" });
  }
  const withheld = found.withheld ? { withheld: found.withheld } : {};
  const results = found.hits.map((h) => ({
    ...articleSummary(h.article),
    ...(h.match ? { match: h.match } : {}),
  }));
  const lines = results.map((r, i) => `${i + 1}. ${r.title} (${r.id}): ${r.url}`);
  return {
    state: "completed",
    text:
      (results.length
        ? `Found ${
          plural(results.length, "article")
        }. Read one with the get_article skill (url_or_id).`
        : "No articles matched.") +
      (found.withheld ? ` ${reasons.withheld(publisher.name, found.withheld)}` : ""),
    data: { status: "ok", count: results.length, mode: found.mode, ...withheld },
    artifacts: [{
      name: "search_results",
      description: "Articles matching the query, best first",
      text: lines.join("\n") || "No articles matched.",
      data: { count: results.length, mode: found.mode, results, ...withheld },
    }],
  };
}

/** get_article: the decision about one article, in task form. */
export function articleOutcome(
  ctx: { config: Pick<Config, "baseUrl">; publisher: Publisher },
  read: {
    article: Article | null;
    decision: Decision | null;
    charge: { micros: number; remainingMicros: number; chargeId: string; receipt: string } | null;
  },
): SkillOutcome {
  const { config, publisher } = ctx;
  const { article, decision } = read;
  if (!article || !decision) {
    return rejectedLike("failed", "No article has that id or URL.", {
      status: "article_not_found",
    });
  }
  const license = licenseBlock(config, publisher, decision);
  const ref = articleRef(article);
  switch (decision.outcome) {
    case "full":
      return {
        state: "completed",
        text: decision.reason,
        data: {
          status: "ok",
          ...(read.charge
            ? {
              chargedUsdCents: microsToCents(read.charge.micros),
              budgetRemainingUsdCents: microsToCents(read.charge.remainingMicros),
              ...receiptFields(read.charge),
            }
            : {}),
        },
        artifacts: [{
          name: "article",
          description: "The full article with its license block",
          text: article.body,
          data: { article: articleFull(article, decision.policy), license },
        }],
      };
    case "license_limited": {
      return {
        state: "completed",
        text: decision.reason,
        data: { status: "license_limited" },
        artifacts: [{
          name: "article_summary",
          description: "The article's summary (summarization license) with its license block",
          text: article.summary,
          data: { article: { ...articleSummary(article), policy: decision.policy }, license },
        }],
      };
    }
    case "blocked":
      return rejectedLike("rejected", decision.reason, { status: "blocked", article: ref });
    case "license_denied":
      return rejectedLike("rejected", decision.reason, {
        status: "license_denied",
        article: ref,
        license,
      });
    case "territory_blocked":
      return rejectedLike("rejected", decision.reason, { status: "territory_blocked" });
    case "payment_overdue":
      return rejectedLike("rejected", decision.reason, {
        status: "payment_overdue",
        invoiceNumber: decision.overdue!.invoiceNumber,
        invoiceUrl: decision.overdue!.url,
      });
    default: {
      const urls = publisherUrls(config, publisher);
      const cents = decision.pricingUsdCents.display;
      return rejectedLike(
        "auth-required",
        decision.reason,
        {
          status: "payment_required",
          // A2A's how-to (v1.0 §4.1.3 auth-required): credentials, then a new message.
          howTo:
            "Send a buyer key (Authorization: Bearer mk_...), then send the request again as a new message.",
          article: { ...articleSummary(article), policy: decision.policy },
          price: {
            usdCents: cents,
            quoteUsdCents: decision.quote ? microsToCents(decision.quote.micros) : null,
          },
          signup: `${config.baseUrl}/api/marketplace/signup`,
          subscribe: `${config.baseUrl}/api/marketplace/licenses`,
          requestLicense: REQUEST_VIA,
          termsUrl: urls.terms,
          license,
        },
      );
    }
  }
}

function rejectedLike(
  state: StateName,
  text: string,
  data: Record<string, unknown>,
): SkillOutcome {
  return { state, text, data, artifacts: [] };
}
