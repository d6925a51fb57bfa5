/**
 * Whether a publisher controls the domain it claims, the way hosted products ask: a DNS TXT
 * record `_folio-challenge.<domain>` holding `folio-verify=<token>`, or the same value served at
 * `http://<domain>/.well-known/folio-verification/<token>` (the well-known URI space, RFC 8615),
 * fetched through the guarded fetcher. Names under FOLIO_TRUSTED_DOMAINS need neither.
 */
import type { DomainClaim } from "../../../store/domain_claims.ts";
import type { ClaimMethod } from "../../../store/domain_claims.ts";
import type { Config } from "../../platform/config.ts";
import type { AppDeps } from "../../deps.ts";
import { FetchRefused } from "../../domain/catalog/fetcher.ts";

/** The label under the domain that carries the TXT record. */
export const CHALLENGE_LABEL = "_folio-challenge";
const WELL_KNOWN = "/.well-known/folio-verification/";
/** The token file is one short line; a page is not a token. */
const MAX_TOKEN_BYTES = 1024;

/** What the publisher must put in place: the TXT record, or the token at its URL. */
export function challengeOf(claim: Pick<DomainClaim, "domain" | "token">) {
  const value = `folio-verify=${claim.token}`;
  return {
    dnsRecord: { name: `${CHALLENGE_LABEL}.${claim.domain}`, type: "TXT" as const, value },
    httpToken: { url: `http://${claim.domain}${WELL_KNOWN}${claim.token}`, body: value },
  };
}

/** True when the operator's configuration vouches for every name under one of its suffixes. */
export function isTrusted(config: Pick<Config, "trustedDomains">, domain: string): boolean {
  return config.trustedDomains.some((s) => domain === s || domain.endsWith(`.${s}`));
}

/** A check's result: proven (and how), or what was found instead, as a sentence. */
export type Proof = { method: ClaimMethod } | { method: null; found: string };

/** Checks the claim: trusted names at once, then the TXT record, then the HTTP token. */
export async function proveClaim(
  deps: Pick<AppDeps, "config" | "fetcher" | "resolveTxt">,
  claim: Pick<DomainClaim, "domain" | "token">,
): Promise<Proof> {
  if (isTrusted(deps.config, claim.domain)) return { method: "trusted" };
  const { dnsRecord, httpToken } = challengeOf(claim);
  const dns = await checkTxt(deps, dnsRecord.name, dnsRecord.value);
  if (dns === null) return { method: "dns" };
  const http = await checkHttp(deps, httpToken.url, httpToken.body);
  if (http === null) return { method: "http" };
  return { method: null, found: `Not verified yet: ${dns}; ${http}.` };
}

/** null when the record holds the value; otherwise what the name holds. */
async function checkTxt(
  deps: Pick<AppDeps, "resolveTxt">,
  name: string,
  value: string,
): Promise<string | null> {
  let records: string[];
  try {
    records = await deps.resolveTxt(name);
  } catch (err) {
    return `${name} could not be looked up (${
      short(err instanceof Error ? err.message : String(err))
    })`;
  }
  if (records.some((r) => r.trim() === value)) return null;
  if (!records.length) return `${name} has no TXT record`;
  const shown = records.slice(0, 3).map((r) => `"${short(r)}"`).join(", ");
  return `${name} has TXT ${shown}${records.length > 3 ? " and more" : ""}, not "${value}"`;
}

/** null when the URL answers the value; otherwise what it answered. */
async function checkHttp(
  deps: Pick<AppDeps, "fetcher">,
  url: string,
  value: string,
): Promise<string | null> {
  try {
    const res = await deps.fetcher.fetch(url, {
      maxBytes: MAX_TOKEN_BYTES,
      truncate: true,
      timeoutMs: 10_000,
    });
    // The token must come from the domain itself (http to https is fine): a redirect to another
    // host would let whoever controls that host prove this one.
    const landed = new URL(res.url).hostname;
    if (landed !== new URL(url).hostname) return `${url} redirected to ${landed}`;
    const body = res.text().trim();
    if (body === value) return null;
    return `${url} answered "${short(body)}", not "${value}"`;
  } catch (err) {
    if (err instanceof FetchRefused) return `${url} could not be fetched (${err.detail})`;
    throw err;
  }
}

function short(s: string): string {
  // deno-lint-ignore no-control-regex
  const clean = s.replace(/[\x00-\x1f\x7f]/g, " ");
  return clean.length > 80 ? `${clean.slice(0, 80)}…` : clean;
}
