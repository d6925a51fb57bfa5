/**
 * RSL license tokens (docs/decisions/rsl.md): what Folio's OLP token endpoint issues and the
 * Crawler Authorization Protocol presents as `Authorization: License <token>`. A token is a JWT
 * signed with the receipt keys (server/domain/billing/receipts.ts), so the JWKS at
 * `/.well-known/jwks.json` verifies it offline; `typ` keeps it from passing for a receipt. It is
 * short-lived and names one buyer (the OLP client's), one publisher and one resource.
 *
 * @module
 */
import type { Receipts } from "../billing/receipts.ts";

/** The JWT `typ` of a license token. */
export const LICENSE_TOKEN_TYP = "rsl-license+jwt";

/** How long a token is good for: long enough for a crawl of the page, short enough to revoke by expiry. */
export const LICENSE_TOKEN_TTL_S = 600;

/** Where the license server is mounted: its URL (the tokens' `iss`) is the base URL plus this. */
export const OLP_PATH = "/api/olp";

/** The license server's URL for a platform at `baseUrl`. */
export function olpServerOf(baseUrl: string): string {
  return `${baseUrl}${OLP_PATH}`;
}

/** The Authorization scheme of the Crawler Authorization Protocol. */
export const LICENSE_SCHEME = "License";

/** What a token grants: the license the client asked for, as matched to the publisher's terms. */
export interface LicenseGrant {
  /** The OLP client's id (`sub`). */
  clientId: string;
  /** The buyer billed for every read under it. */
  buyerId: string;
  publisherId: string;
  /** The resource URL as the client named it. */
  resource: string;
  /** The article the resource is (an unlisted page's id is its URL without the query). */
  articleId: string;
  /** The license's payment: `free`, or `crawl` up to `amountMicros` per read (fee included). */
  payment: "free" | "crawl";
  amountMicros: number;
  /** RSL usages the license permits. */
  usages: string[];
}

/** A verified token: its grant and when it expires. */
export interface LicenseToken {
  grant: LicenseGrant;
  jti: string;
  expiresAt: Date;
}

/**
 * A refusal in the Crawler Authorization Protocol's form: `WWW-Authenticate: License error=...`
 * (RFC 6750 section 3's codes under the License scheme), 401 for a missing, malformed, expired or
 * forged token, 403 for a genuine one that does not cover the request.
 */
export class LicenseTokenError extends Error {
  override name = "LicenseTokenError";
  constructor(
    readonly error: "invalid_request" | "invalid_token" | "insufficient_scope",
    message: string,
  ) {
    super(message);
  }
  get status(): 401 | 403 {
    return this.error === "insufficient_scope" ? 403 : 401;
  }
}

/** The `WWW-Authenticate` challenge of a refusal (quotes and controls dropped from the text). */
export function licenseChallenge(error: string, description: string): string {
  // deno-lint-ignore no-control-regex
  const text = description.replace(/["\\\u0000-\u001f\u007f-\uffff]/g, "");
  return `${LICENSE_SCHEME} realm="folio", error="${error}", error_description="${text}"`;
}

/** Signs `grant` as a token valid from `now` for LICENSE_TOKEN_TTL_S. */
export async function issueLicenseToken(
  receipts: Pick<Receipts, "signJwt">,
  grant: LicenseGrant,
  options: { issuer: string; now: Date; jti: string },
): Promise<{ token: string; expiresIn: number }> {
  const iat = Math.floor(options.now.getTime() / 1000);
  const token = await receipts.signJwt({
    iss: options.issuer,
    sub: grant.clientId,
    aud: grant.publisherId,
    jti: options.jti,
    iat,
    exp: iat + LICENSE_TOKEN_TTL_S,
    buyer: grant.buyerId,
    resource: grant.resource,
    article: grant.articleId,
    license: { payment: grant.payment, amount_micros: grant.amountMicros, usages: grant.usages },
  }, LICENSE_TOKEN_TYP);
  return { token, expiresIn: LICENSE_TOKEN_TTL_S };
}

/** The token's grant when Folio signed it and it is live at `now`; throws the CAP refusal otherwise. */
export async function verifyLicenseToken(
  receipts: Pick<Receipts, "verifyJwt">,
  token: string,
  options: { now: Date; issuer: string },
): Promise<LicenseToken> {
  const got = await receipts.verifyJwt(token, LICENSE_TOKEN_TYP, options.now, options.issuer);
  if ("why" in got) {
    throw new LicenseTokenError(
      "invalid_token",
      got.why === "expired"
        ? "The license token has expired: acquire a new one from the license server"
        : "The license token is not one Folio's license server issued (malformed, altered or forged)",
    );
  }
  const c = got.claims as Record<string, unknown>;
  const license = c.license as Record<string, unknown> | undefined;
  const strings = [c.sub, c.aud, c.buyer, c.resource, c.article, c.jti];
  if (!strings.every((v) => typeof v === "string") || !license || typeof c.exp !== "number") {
    throw new LicenseTokenError("invalid_token", "The license token lacks its claims");
  }
  return {
    jti: String(c.jti),
    expiresAt: new Date(c.exp * 1000),
    grant: {
      clientId: String(c.sub),
      publisherId: String(c.aud),
      buyerId: String(c.buyer),
      resource: String(c.resource),
      articleId: String(c.article),
      payment: license.payment === "crawl" ? "crawl" : "free",
      amountMicros: Number(license.amount_micros) || 0,
      usages: Array.isArray(license.usages) ? license.usages.map(String) : [],
    },
  };
}
