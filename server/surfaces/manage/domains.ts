/**
 * A publisher's custom domain (issue 28): a claim is pending, and the domain does not route, until
 * its owner proves it (domain_proof.ts). Several publishers may wait on one domain; the first to
 * prove it takes it, and the others' claims are released with a sentence saying why.
 */
import {
  type DomainClaim,
  dropClaim,
  getDomainClaim,
  keepRoutedClaim,
  listPendingClaims,
  notePendingCheck,
  putPendingClaim,
  verifyClaim,
} from "../../../store/domain_claims.ts";
import { withLease } from "../../../store/leases.ts";
import {
  findPublisherByDomain,
  getPublisher,
  normaliseHost,
  type Publisher,
} from "../../../store/publishers.ts";
import { syncChapterUrls } from "../../domain/catalog/books.ts";
import type { AppDeps } from "../../deps.ts";
import { AppError, invalid } from "../../platform/errors.ts";
import { randomBase62 } from "../../platform/secrets.ts";
import { domainTaken } from "./accounts.ts";
import { challengeOf, isTrusted, type Proof, proveClaim } from "./domain_proof.ts";

type Deps = Pick<AppDeps, "store" | "config" | "clock" | "fetcher" | "resolveTxt">;

const METHOD_WORDS = {
  dns: "its DNS TXT record",
  http: "its HTTP token",
  trusted: "this server's FOLIO_TRUSTED_DOMAINS",
};

/** The `domain` block of the settings document: the claim, its state and what proves it. */
export function presentDomain(p: Publisher, claim: DomainClaim | null) {
  if (!claim) {
    // Set by the operator (seed, admin CLI) without a claim: routed as it is.
    if (!p.customDomain) return null;
    return {
      name: p.customDomain,
      status: "verified" as const,
      dnsRecord: null,
      httpToken: null,
      checkedAt: null,
      message: "Verified: set by the operator of this server.",
    };
  }
  const { dnsRecord, httpToken } = challengeOf(claim);
  return {
    name: claim.domain,
    status: claim.state,
    dnsRecord,
    httpToken,
    checkedAt: claim.checkedAt === null ? null : new Date(claim.checkedAt).toISOString(),
    message: claim.note ?? "",
  };
}

/** The domain a publisher claims (pending or verified) for `customDomain`; null once released. */
export function claimedDomain(p: Publisher, claim: DomainClaim | null): string | null {
  if (!claim) return p.customDomain;
  return claim.state === "released" ? null : claim.domain;
}

/**
 * Sets, changes or removes the publisher's claim (PATCH customDomain). A new domain starts
 * pending (a trusted one is verified at once) while the domain already proven keeps serving;
 * keeping the same domain changes nothing; null stops serving any.
 */
export async function claimDomain(deps: Deps, p: Publisher, domain: string | null): Promise<void> {
  const db = deps.store.db;
  const now = deps.clock.now();
  if (domain === null) return await dropClaim(db, p.id, { now });
  const host = normaliseHost(domain);
  // The platform's host serves the marketplace, OAuth and every publisher's MCP endpoint: a
  // publisher resolved from it would shadow them (docs/DESIGN.md §6 "Publisher host").
  if (host === normaliseHost(new URL(deps.config.baseUrl).host)) {
    throw invalid("customDomain", "is the platform's own host name");
  }
  const current = await getDomainClaim(db, p.id);
  if (current ? claimedDomain(p, current) === host : p.customDomain === host) return;
  if (p.customDomain !== null && normaliseHost(p.customDomain) === host) {
    // Back to the domain it still serves, while another waited for proof: verified as it was.
    const note = `Verified earlier; ${host} kept serving meanwhile.`;
    const kept = { publisherId: p.id, domain: p.customDomain, token: randomBase62(24), note };
    return await keepRoutedClaim(db, kept, { now });
  }
  const owner = await findPublisherByDomain(db, host);
  if (owner && owner.id !== p.id) throw domainTaken(host);
  const claim = { publisherId: p.id, domain: host, token: randomBase62(24) };
  const { dnsRecord, httpToken } = challengeOf(claim);
  const serving = p.customDomain ? ` Until then ${p.customDomain} keeps serving.` : "";
  const note = `Pending: add a TXT record ${dnsRecord.name} with the value ${dnsRecord.value}, ` +
    `or serve that value at ${httpToken.url}, then verify.${serving}`;
  await putPendingClaim(db, { ...claim, note }, { now });
  if (isTrusted(deps.config, host)) await settle(deps, claim, { method: "trusted" });
}

/** Checks the publisher's pending claim now ("verify now"); the claim as it stands after. */
export async function verifyDomain(deps: Deps, publisherId: string): Promise<DomainClaim> {
  const claim = await getDomainClaim(deps.store.db, publisherId);
  if (!claim || claim.state === "released") {
    throw new AppError(
      409,
      "no_domain_claim",
      "customDomain: there is no domain waiting for proof; set customDomain first",
    );
  }
  if (claim.state === "pending") await settle(deps, claim, await proveClaim(deps, claim));
  return (await getDomainClaim(deps.store.db, publisherId))!;
}

/**
 * Re-checks pending claims, least recently checked first, under a lease so one node does it
 * (server/crons.ts); the owner of a domain whose record appears later needs no click. 100 a round
 * at most 10 s each stays inside the lease.
 */
export async function recheckPendingDomains(
  deps: Deps,
  options: { holder: string; limit?: number },
): Promise<unknown> {
  const now = deps.clock.now();
  return await withLease(
    deps.store.db,
    "domain-claims",
    { holder: options.holder, ttlMs: 30 * 60_000, now },
    async () => {
      const pending = await listPendingClaims(deps.store.db, options.limit ?? 100);
      for (const claim of pending) await settle(deps, claim, await proveClaim(deps, claim));
      return pending.length;
    },
  );
}

/** Verifies pending claims on trusted names without asking the network (at start). */
export async function verifyTrustedClaims(deps: Deps): Promise<void> {
  for (const claim of await listPendingClaims(deps.store.db, 10_000)) {
    if (isTrusted(deps.config, claim.domain)) await settle(deps, claim, { method: "trusted" });
  }
}

/** Records a check: verified (routing the domain, releasing the others) or still pending. */
async function settle(
  deps: Deps,
  claim: Pick<DomainClaim, "publisherId" | "domain" | "token">,
  proof: Proof,
): Promise<void> {
  const db = deps.store.db;
  const now = deps.clock.now();
  const day = now.toISOString().slice(0, 10);
  if (proof.method === null) return await notePendingCheck(db, claim, proof.found, { now });
  const how = METHOD_WORDS[proof.method];
  try {
    const done = await verifyClaim(db, claim, {
      method: proof.method,
      note: `Verified on ${day} by ${how}.`,
      releasedNote: `Released on ${day}: another publisher proved it owns ${claim.domain} ` +
        `(${how}); set a domain you control.`,
    }, { now });
    if (!done) return;
  } catch (err) {
    if (!/UNIQUE/.test(String(err))) throw err;
    const note = `Not verified: ${claim.domain} is already in use by a publisher that proved it.`;
    return await notePendingCheck(db, claim, note, { now });
  }
  const publisher = await getPublisher(db, claim.publisherId);
  if (publisher) await syncChapterUrls(deps, publisher);
}
