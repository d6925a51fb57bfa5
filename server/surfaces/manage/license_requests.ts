/**
 * License requests as the management API shows them: who asked (server/surfaces/manage/callers.ts) and the
 * buyer billed, the rights asked, the decision (when, price, term, reason), prices in US cents.
 */
import type { ApprovedLicense, LicenseRequest } from "../../domain/billing/license_requests.ts";
import type { Client } from "../../../store/db.ts";
import type { Publisher } from "../../../store/publishers.ts";
import type { UseCase } from "../../domain/licensing/mod.ts";
import { microsToCents } from "../../platform/money.ts";
import { describeCallers } from "./callers.ts";

/** Requests with their requester and buyer resolved in one lookup. */
export async function presentRequests(
  db: Client,
  publisher: Pick<Publisher, "enterpriseTerms">,
  requests: LicenseRequest[],
) {
  const callerOf = await describeCallers(db, [
    ...requests.map((r) => r.identity),
    ...requests.map((r) => r.buyerId && `buyer:${r.buyerId}`),
  ]);
  return requests.map(({ priceMicros, ...r }) => {
    const buyer = r.buyerId ? callerOf(`buyer:${r.buyerId}`) : null;
    return {
      ...r,
      requester: callerOf(r.identity),
      buyerName: buyer?.kind === "buyer" ? buyer.name : null,
      rightsAsked: rightsAsked(publisher, r),
      monthlyPriceUsdCents: priceMicros === null ? null : microsToCents(priceMicros),
    };
  });
}

/** The license an approval created. */
export function presentLicense(license: ApprovedLicense) {
  return {
    id: license.id,
    kind: license.kind,
    useCases: license.useCases,
    monthlyPriceUsdCents: microsToCents(license.monthlyFeeMicros),
    termMonths: license.termMonths,
    expiresAt: license.expiresAt === null ? null : new Date(license.expiresAt).toISOString(),
  };
}

/** The use asked for, and for an enterprise request the uses of the enterprise terms. */
function rightsAsked(
  publisher: Pick<Publisher, "enterpriseTerms">,
  r: Pick<LicenseRequest, "useCase" | "enterprise">,
): UseCase[] {
  const extra = r.enterprise ? publisher.enterpriseTerms?.useCases ?? [] : [];
  return [...new Set([...extra, r.useCase as UseCase])];
}
