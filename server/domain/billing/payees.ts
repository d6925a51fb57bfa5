/**
 * Publishers' payee details (issue 38 part 5; docs/decisions/billing.md "Payouts paid"): where a
 * publisher's money goes. Validated (IBAN checksum and country format by ibantools, a US routing
 * number's ABA checksum, an email), sealed whole under FOLIO_PAYEE_KEY_SECRET (or, in development,
 * a key the store keeps), shown masked to the last four, changes audited without the numbers.
 */
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from "ibantools";
import type { Client, Executor } from "../../../store/db.ts";
import { randomBase32 } from "../../../store/ids.ts";
import { nodeKey, payeeOf, type PayeeRow, payeesOf, putPayee } from "../../../store/payees.ts";
import { seal, unseal } from "../../platform/sealed.ts";
import { type Actor, audit } from "../audit/audit.ts";

const PURPOSE = "payee details";

/** A payee as entered (the API's body, server/surfaces/manage/payee_schemas.ts). */
export type PayeeInput =
  & { legalName: string; country: string; currency: string }
  & (
    | { method: "iban"; iban: string; bic?: string | null }
    | {
      method: "us_account";
      accountNumber: string;
      routingNumber: string;
      accountType: "checking" | "savings";
    }
    | { method: "email"; provider: "paypal" | "wise" | "payoneer"; email: string }
  );

/** What every answer shows: no number beyond its last four. */
export interface PayeeView {
  legalName: string;
  country: string;
  currency: string;
  method: PayeeInput["method"];
  /** e.g. "IBAN •••• 3000", "Account •••• 6789 (routing 021000021)", "PayPal j•••@example.com". */
  masked: string;
  last4: string;
  updatedAt: string;
}

/** An IBAN in electronic form when its checksum and its country's format hold; else null. */
export function ibanOf(raw: string): string | null {
  const iban = electronicFormatIBAN(raw) ?? "";
  return isValidIBAN(iban) ? iban : null;
}

/** A BIC (SWIFT code), upper-cased, when well-formed; else null. */
export function bicOf(raw: string): string | null {
  const bic = raw.replace(/\s+/g, "").toUpperCase();
  return isValidBIC(bic) ? bic : null;
}

/** A US routing number's ABA checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function isRoutingNumber(raw: string): boolean {
  if (!/^\d{9}$/.test(raw)) return false;
  const d = [...raw].map(Number);
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + d[2] + d[5] + d[8];
  return sum % 10 === 0;
}

const REGIONS = new Intl.DisplayNames(["en"], { type: "region" });
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

/** An ISO 3166-1 alpha-2 country code the runtime knows a name for. */
export function isCountry(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code)) return false;
  try {
    return REGIONS.of(code) !== code;
  } catch {
    return false;
  }
}

/** An ISO 4217 currency code. */
export function isCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && CURRENCIES.has(code);
}

/** The key payee details are sealed under: the configured secret, else the store's own. */
export async function payeeSecret(
  deps: { db: Client; secret: string | null; now: Date },
): Promise<string> {
  return deps.secret ?? await nodeKey(deps.db, "payee", randomBase32(52), deps.now);
}

/** Seals and stores `input` as the publisher's payee details; audited (masked) in the same write. */
export async function savePayee(
  deps: { db: Client; secret: string | null; now: Date },
  publisherId: string,
  input: PayeeInput,
  actor: Actor,
): Promise<PayeeView> {
  const secret = await payeeSecret(deps);
  const normal = normalize(input);
  const row: PayeeRow = {
    publisherId,
    sealed: await seal(JSON.stringify(normal), secret, PURPOSE),
    method: normal.method,
    last4: last4Of(normal),
    country: normal.country,
    currency: normal.currency,
    updatedAt: deps.now.getTime(),
  };
  const tx = await deps.db.transaction("write");
  try {
    const before = await payeeOf(tx, publisherId);
    await putPayee(tx, row);
    await audit(tx, {
      actor,
      action: "payee.updated",
      subject: { kind: "publisher", id: publisherId },
      before: before ? shown(before) : null,
      after: shown(row),
      now: deps.now,
    });
    await tx.commit();
  } finally {
    tx.close();
  }
  return viewOf(row, normal);
}

/** The publisher's payee details, masked; null when it gave none. */
export async function payeeView(
  deps: { db: Client; secret: string | null; now: Date },
  publisherId: string,
): Promise<PayeeView | null> {
  const row = await payeeOf(deps.db, publisherId);
  if (!row) return null;
  return viewOf(row, await opened(deps, row));
}

/** Whole payee details for the payout file (the operator's export only). */
export async function payeesForExport(
  deps: { db: Client; secret: string | null; now: Date },
  tx: Executor,
  publisherIds: string[],
): Promise<Map<string, PayeeInput>> {
  const rows = await payeesOf(tx, publisherIds);
  const out = new Map<string, PayeeInput>();
  for (const row of rows) out.set(row.publisherId, await opened(deps, row));
  return out;
}

async function opened(
  deps: { db: Client; secret: string | null; now: Date },
  row: PayeeRow,
): Promise<PayeeInput> {
  const text = await unseal(row.sealed, await payeeSecret(deps), PURPOSE);
  if (text === null) {
    throw new Error(
      `payee details of ${row.publisherId} were sealed under another FOLIO_PAYEE_KEY_SECRET`,
    );
  }
  return JSON.parse(text) as PayeeInput;
}

function normalize(input: PayeeInput): PayeeInput {
  const common = {
    legalName: input.legalName.trim(),
    country: input.country.toUpperCase(),
    currency: input.currency.toUpperCase(),
  };
  if (input.method === "iban") {
    return {
      ...common,
      method: "iban",
      iban: ibanOf(input.iban)!,
      bic: input.bic ? bicOf(input.bic) : null,
    };
  }
  if (input.method === "us_account") return { ...input, ...common };
  return { ...input, ...common, email: input.email.trim().toLowerCase() };
}

function last4Of(p: PayeeInput): string {
  if (p.method === "iban") return p.iban.slice(-4);
  if (p.method === "us_account") return p.accountNumber.slice(-4);
  return p.email.split("@")[0].slice(0, 1);
}

const PROVIDERS = { paypal: "PayPal", wise: "Wise", payoneer: "Payoneer" } as const;

function viewOf(row: PayeeRow, p: PayeeInput): PayeeView {
  const masked = p.method === "iban"
    ? `IBAN •••• ${row.last4}`
    : p.method === "us_account"
    ? `Account •••• ${row.last4} (routing ${p.routingNumber})`
    : `${PROVIDERS[p.provider]} ${row.last4}•••@${p.email.split("@")[1]}`;
  return {
    legalName: p.legalName,
    country: row.country,
    currency: row.currency,
    method: row.method,
    masked,
    last4: row.last4,
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** What the audit keeps of a payee: never the numbers. */
function shown(row: PayeeRow) {
  return { method: row.method, last4: row.last4, country: row.country, currency: row.currency };
}
