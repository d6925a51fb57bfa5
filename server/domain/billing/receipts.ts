/**
 * Signed receipts (issue 29 item 6): each charged read's item, signed as a compact JWS (RFC 7515)
 * with Ed25519 (RFC 8037 `EdDSA`), verifiable offline against the JWKS (RFC 7517) Folio publishes
 * at `/.well-known/jwks.json`. Keys live in the store (migration 0031), each with its `kid`; a
 * rotation adds a key and keeps the old public halves in the JWKS, so old receipts still verify.
 * Ed25519 signatures are deterministic: re-signing an unchanged item with the same key gives the
 * same receipt, so receipts need no table of their own.
 */
import {
  compactVerify,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from "jose";
import type { KeyObject } from "node:crypto";
import type { Client } from "../../../store/db.ts";
import {
  addReceiptKey,
  listReceiptKeys,
  type ReceiptKeyRow,
  signingReceiptKey,
} from "../../../store/receipt_keys.ts";
import { randomBase32 } from "../../../store/ids.ts";
import { seal as sealText, unseal } from "../../platform/sealed.ts";
import type { Clock } from "../../platform/clock.ts";
import { type ItemWire, receiptIdOf } from "./items.ts";
import { microsToCents } from "../../platform/money.ts";
import {
  type PrivateJwk,
  privateKeyOf,
  RECEIPT_TYP,
  signCompact,
  signingInput,
} from "./receipt_jws.ts";

export { RECEIPT_TYP };
/** The signing key: its kid, as jose's key (JWTs) and node:crypto's (receipts). */
interface SigningKey {
  kid: string;
  key: CryptoKey;
  privateKey: KeyObject;
}

/** How long a process keeps the signing key before looking for a newer one (a rotation). */
const KEY_TTL_MS = 60_000;

/** What a receipt says: who issued it, to whom, which receipt, when, and the charge item. */
export interface ReceiptClaims {
  iss: string;
  sub: string;
  jti: string;
  iat: number;
  charge: ItemWire;
}

/** Signs receipts and publishes the keys. */
export interface Receipts {
  /** The receipt of `item`, charged to `buyerId`. */
  sign(buyerId: string, item: ItemWire): Promise<string>;
  /** The JWKS: every key's public half, the signing key first. */
  jwks(): Promise<{ keys: JWK[] }>;
  /** Makes a new signing key; the old ones stay in the JWKS. Returns the new `kid`. */
  rotate(): Promise<string>;
  /** The receipt's claims and key if Folio signed it as it stands; null if not (forged, altered). */
  verify(jws: string): Promise<{ claims: ReceiptClaims; kid: string } | null>;
  /**
   * A JWT of `typ` with the same keys (RSL license tokens, server/domain/licensing/license_tokens.ts),
   * so one JWKS verifies receipts and tokens; `typ` keeps one from passing for the other.
   */
  signJwt(claims: JWTPayload, typ: string): Promise<string>;
  /** The JWT's claims when Folio signed it with `typ` as `issuer`, valid at `now`; else why not. */
  verifyJwt(
    jwt: string,
    typ: string,
    now: Date,
    issuer: string,
  ): Promise<{ claims: JWTPayload } | { why: "expired" | "invalid" }>;
}

/**
 * The receipts of one store, signed as `issuer()` (the platform's base URL, read at each signing:
 * a node started on port 0 learns it only once listening).
 */
export function receipts(
  deps: { db: Client; clock: Clock },
  options: { issuer: () => string; secret: string | null },
): Receipts {
  let cached: (SigningKey & { until: number }) | null = null;
  let creating: Promise<void> | null = null;

  const rotate = async (): Promise<string> => {
    const { publicKey, privateKey } = await generateKeyPair("EdDSA", {
      crv: "Ed25519",
      extractable: true,
    });
    const pub = await exportJWK(publicKey);
    const kid = `rk_${deps.clock.now().toISOString().slice(0, 10)}_${randomBase32(8)}`;
    await addReceiptKey(deps.db, {
      kid,
      publicJwk: JSON.stringify({ ...pub, kid, alg: "EdDSA", use: "sig" }),
      privateJwk: await seal(await exportJWK(privateKey), options.secret),
      createdAt: deps.clock.now().getTime(),
      retiredAt: null,
    });
    cached = null;
    return kid;
  };

  const signingKey = async (): Promise<SigningKey> => {
    const now = deps.clock.now().getTime();
    if (cached && cached.until > now) return cached;
    let row = await signingReceiptKey(deps.db);
    if (!row) {
      // The first charged read makes the first key (one per process at most, and a key made by
      // two processes at once is harmless: the newest signs, both verify).
      await (creating ??= rotate().then(() => {}).finally(() => creating = null));
      row = (await signingReceiptKey(deps.db))!;
    }
    const jwk = await open(row, options.secret) as PrivateJwk;
    cached = {
      kid: row.kid,
      key: await crypto.subtle.importKey("jwk", jwk, { name: "Ed25519" }, false, ["sign"]),
      privateKey: privateKeyOf(jwk),
      until: now + KEY_TTL_MS,
    };
    return cached;
  };

  return {
    async sign(buyerId, item) {
      const key = await signingKey();
      const claims: ReceiptClaims = {
        iss: options.issuer(),
        sub: buyerId,
        jti: item.receiptId,
        iat: Math.floor(Date.parse(item.at) / 1000),
        charge: item,
      };
      return signCompact(signingInput(key.kid, JSON.stringify(claims)), key.privateKey);
    },
    async jwks() {
      let rows = await listReceiptKeys(deps.db);
      if (rows.length === 0) {
        // Never an empty set: a verifier that fetched it before the first charge would otherwise
        // hold a set without the key its first receipt names.
        await signingKey();
        rows = await listReceiptKeys(deps.db);
      }
      return { keys: rows.map((r) => JSON.parse(r.publicJwk) as JWK) };
    },
    rotate,
    async signJwt(claims, typ) {
      const { kid, key } = await signingKey();
      return await new SignJWT(claims).setProtectedHeader({ alg: "EdDSA", kid, typ }).sign(key);
    },
    async verifyJwt(jwt, typ, now, issuer) {
      const keys = createLocalJWKSet({
        keys: (await listReceiptKeys(deps.db)).map((r) => JSON.parse(r.publicJwk) as JWK),
      });
      try {
        const { payload } = await jwtVerify(jwt, keys, {
          algorithms: ["EdDSA"],
          typ,
          issuer,
          currentDate: now,
          clockTolerance: 0,
        });
        return { claims: payload };
      } catch (e) {
        return { why: (e as { code?: string }).code === "ERR_JWT_EXPIRED" ? "expired" : "invalid" };
      }
    },
    async verify(jws) {
      const keys = createLocalJWKSet({
        keys: (await listReceiptKeys(deps.db)).map((r) => JSON.parse(r.publicJwk) as JWK),
      });
      try {
        const { payload, protectedHeader } = await compactVerify(jws, keys, {
          algorithms: ["EdDSA"],
        });
        if (protectedHeader.typ !== RECEIPT_TYP) return null;
        const claims = JSON.parse(new TextDecoder().decode(payload)) as ReceiptClaims;
        return { claims, kid: String(protectedHeader.kid) };
      } catch {
        return null;
      }
    },
  };
}

/** The private JWK as stored: a JWE under the secret when there is one. */
async function seal(jwk: JWK, secret: string | null): Promise<string> {
  if (!secret) return JSON.stringify(jwk);
  return await sealText(JSON.stringify(jwk), secret, PURPOSE);
}

async function open(row: ReceiptKeyRow, secret: string | null): Promise<JWK> {
  if (row.privateJwk.startsWith("{")) return JSON.parse(row.privateJwk) as JWK;
  if (!secret) {
    throw new Error(
      `receipt key ${row.kid} is encrypted: set FOLIO_RECEIPT_KEY_SECRET to the secret it was made with`,
    );
  }
  const jwk = await unseal(row.privateJwk, secret, PURPOSE);
  if (jwk === null) {
    throw new Error(`receipt key ${row.kid} was sealed under another FOLIO_RECEIPT_KEY_SECRET`);
  }
  return JSON.parse(jwk) as JWK;
}

/** What the secret's key is for (keys sealed before server/platform/sealed.ts used the same). */
const PURPOSE = "receipt keys";

/** A charged read's receipt fields on MCP and A2A (REST and the landing path: headers). */
export function receiptFields(charge: { chargeId: string; receipt: string }) {
  return {
    chargeId: charge.chargeId,
    receiptId: receiptIdOf(charge.chargeId),
    receipt: charge.receipt,
  };
}

/**
 * The charges of a passages answer, one per charged article (its rag read), with their receipts:
 * what REST and MCP add to it (`charges`) when any article was charged.
 */
export function passageCharges(
  hits: {
    article: { id: string };
    charge: { chargeId: string; micros: number; receipt: string } | null;
  }[],
) {
  const seen = new Map<string, ReturnType<typeof passageCharge>>();
  for (const h of hits) {
    if (h.charge && !seen.has(h.article.id)) {
      seen.set(h.article.id, passageCharge(h.article.id, h.charge));
    }
  }
  return [...seen.values()];
}

function passageCharge(
  articleId: string,
  c: { chargeId: string; micros: number; receipt: string },
) {
  return {
    articleId,
    chargedUsdCents: microsToCents(c.micros),
    ...receiptFields(c),
  };
}
