/** Publisher settings: their API form (US cents) and applying a merge patch to the stored form. */
import { type DomainClaim, getDomainClaim } from "../../../store/domain_claims.ts";
import { getPublisher, type Publisher, updatePublisher } from "../../../store/publishers.ts";
import type { Config } from "../../platform/config.ts";
import type { AppDeps } from "../../deps.ts";
import { publisherUrls } from "../../platform/urls.ts";
import { centsToMicros, microsToCents, pricesInCents } from "../../platform/money.ts";
import { claimDomain, claimedDomain, presentDomain } from "./domains.ts";
import { crawlerFamily } from "../../domain/crawlers/crawlers.ts";
import { syncChapterUrls } from "../../domain/catalog/books.ts";
import { fetchRobotsSoon } from "../../domain/catalog/robots.ts";
import type { SettingsPatch } from "./schemas.ts";
import { withdrawnUses } from "../../domain/licensing/mod.ts";
import { createStripe } from "../../domain/billing/stripe.ts";
import { endWithdrawnSubscriptions } from "../../domain/billing/withdrawals.ts";
import { AppError } from "../../platform/errors.ts";

/** The publisher's settings document, with its domain claim read from the store. */
export async function settingsOf(deps: Pick<AppDeps, "store" | "config">, p: Publisher) {
  return presentSettings(p, deps.config, await getDomainClaim(deps.store.db, p.id));
}

/**
 * The settings document of GET /api/publisher/settings: `customDomain` is the domain claimed
 * (pending or verified); `domain` says which, and the record that proves it.
 */
export function presentSettings(
  p: Publisher,
  config: Pick<Config, "baseUrl">,
  claim: DomainClaim | null,
) {
  return {
    publisherId: p.id,
    slug: p.slug,
    name: p.name,
    description: p.description,
    customDomain: claimedDomain(p, claim),
    domain: presentDomain(p, claim),
    branding: p.branding,
    toggles: p.toggles,
    rights: p.rights,
    pricingUsdCents: pricesInCents(p.pricesMicros),
    paywallMeterLimit: p.paywallMeterLimit,
    robotsOrigin: p.robotsOrigin,
    originUrl: p.originUrl,
    sponsorTools: p.sponsorTools,
    enterpriseTerms: p.enterpriseTerms
      ? {
        useCases: p.enterpriseTerms.useCases,
        monthlyPriceUsdCents: microsToCents(p.enterpriseTerms.monthlyPriceMicros),
        conditions: p.enterpriseTerms.conditions,
      }
      : null,
    agentPayments: {
      enabled: p.agentPayments.enabled,
      crawlerPriceUsdCents: p.agentPayments.crawlerPriceMicros === null
        ? null
        : microsToCents(p.agentPayments.crawlerPriceMicros),
      defaultAction: p.agentPayments.defaultAction,
      crawlers: p.agentPayments.crawlers,
      userFetchers: p.agentPayments.userFetchers,
    },
    /** Where the publisher's surfaces answer (read-only); the host only once verified. */
    urls: publisherUrls(config, p),
  };
}

/**
 * Merges a validated patch into the publisher's settings and stores the result: top-level fields
 * replace, the objects branding/toggles/rights/pricingUsdCents merge key by key. The custom domain
 * is a claim (domains.ts), checked (taken, or the platform's own host) before any write.
 */
export async function applySettingsPatch(
  deps: Pick<AppDeps, "store" | "config" | "clock" | "fetcher" | "log" | "resolveTxt">,
  publisher: Publisher,
  patch: SettingsPatch,
): Promise<Publisher> {
  const next: Publisher = {
    ...publisher,
    branding: { ...publisher.branding, ...patch.branding },
    toggles: { ...publisher.toggles, ...patch.toggles },
    rights: { ...publisher.rights, ...patch.rights },
    pricesMicros: { ...publisher.pricesMicros },
  };
  if (patch.name !== undefined) next.name = patch.name;
  if (patch.description !== undefined) next.description = patch.description;
  for (const [use, cents] of Object.entries(patch.pricingUsdCents ?? {})) {
    next.pricesMicros[use as keyof Publisher["pricesMicros"]] = centsToMicros(cents);
  }
  if (patch.paywallMeterLimit !== undefined) next.paywallMeterLimit = patch.paywallMeterLimit;
  if (patch.robotsOrigin !== undefined) {
    next.robotsOrigin = patch.robotsOrigin === null ? null : new URL(patch.robotsOrigin).origin;
  }
  if (patch.originUrl !== undefined) {
    next.originUrl = originUrlOf(deps.config, next, patch.originUrl);
  }
  if (patch.sponsorTools !== undefined) next.sponsorTools = patch.sponsorTools;
  if (patch.agentPayments !== undefined) next.agentPayments = agentPaymentsOf(next, patch);
  if (patch.enterpriseTerms !== undefined) {
    next.enterpriseTerms = patch.enterpriseTerms === null ? null : {
      useCases: patch.enterpriseTerms.useCases,
      monthlyPriceMicros: centsToMicros(patch.enterpriseTerms.monthlyPriceUsdCents),
      conditions: patch.enterpriseTerms.conditions,
    };
  }
  if (patch.customDomain !== undefined) await claimDomain(deps, publisher, patch.customDomain);
  // The routed domain is the claims' to change (domains.ts), never this write's.
  await updatePublisher(deps.store.db, next, { now: deps.clock.now(), keepDomain: true });
  next.customDomain = (await getPublisher(deps.store.db, publisher.id))?.customDomain ?? null;
  // A withdrawn use stays with current subscribers to the end of their paid month, then their
  // subscription ends (docs/decisions/licensing.md "The rights table").
  const withdrawn = withdrawnUses(publisher.rights, next.rights);
  if (withdrawn.length) {
    const processor = deps.config.stripe ? createStripe(deps.config.stripe, deps.fetcher) : null;
    await endWithdrawnSubscriptions({ db: deps.store.db, processor }, publisher.id, withdrawn, {
      now: deps.clock.now(),
    });
  }
  if (next.customDomain !== publisher.customDomain) await syncChapterUrls(deps, next);
  // Until its robots.txt is known, the new origin escalates every crawler (server/surfaces/landing/
  // visitor.ts): ask it now rather than at the first crawler's visit.
  if (next.robotsOrigin && next.robotsOrigin !== publisher.robotsOrigin) {
    fetchRobotsSoon(deps, next.id, next.robotsOrigin, { throttled: false });
  }
  return next;
}

/**
 * The reverse-proxy origin (issue 33), as an origin: never Folio itself nor the publisher's own
 * domain, which would send each request back to Folio. Its address is checked on every request
 * (server/surfaces/landing/origin_proxy.ts).
 */
function originUrlOf(config: Config, p: Publisher, raw: string | null): string | null {
  if (raw === null) return null;
  const url = new URL(raw);
  const own = [new URL(config.baseUrl).hostname, p.customDomain].filter(Boolean)
    .map((h) => h!.toLowerCase().replace(/\.$/, ""));
  if (own.includes(url.hostname.toLowerCase().replace(/\.$/, ""))) {
    throw new AppError(
      400,
      "invalid_request",
      "originUrl: must be the publisher's own server, not Folio or the domain Folio answers for it",
      {},
      "originUrl",
    );
  }
  return url.origin;
}

/** Merges an agent-payments patch; per-crawler actions replace the map, under canonical names. */
function agentPaymentsOf(p: Publisher, patch: SettingsPatch): Publisher["agentPayments"] {
  const { crawlerPriceUsdCents, crawlers, ...rest } = patch.agentPayments!;
  const next = { ...p.agentPayments, ...rest };
  if (crawlerPriceUsdCents !== undefined) {
    next.crawlerPriceMicros = crawlerPriceUsdCents === null
      ? null
      : centsToMicros(crawlerPriceUsdCents);
  }
  if (crawlers !== undefined) {
    next.crawlers = Object.fromEntries(
      Object.entries(crawlers).map(([name, action]) => [crawlerFamily(name)!, action]),
    );
  }
  return next;
}
