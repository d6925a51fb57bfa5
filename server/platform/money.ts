/**
 * Money: the only module that does price arithmetic and writes amounts (ARCHITECTURE.md "House
 * rules", docs/decisions/platform.md "Recurring mistakes"; lint rule `folio/money-in-money`).
 *
 * Inside Folio money is integer micro-dollars (µUSD, 1 USD = 1_000_000). API fields named
 * `...Cents` are US cents: per-use prices may be fractional (0.5), totals are whole cents rounded
 * half-up (docs/DESIGN.md §4 "Money").
 *
 * Amounts are written in two ways only. Pages (server/pages/, ui/) write `formatUsd()`: "$12.34",
 * per-use prices to the micro-dollar ("$0.005"). The wire keeps what the APIs already emit (pinned
 * by tests/__snapshots__): `usdDecimal()` for machine amounts (RSL `<amount>`, the
 * `crawler-price` headers), and in prose `centsText()` ("0.5¢", a per-use price) and `usdText()`
 * ("1,000 USD", the cap).
 *
 * @module
 */

/** Micro-dollars in one US cent. */
export const MICROS_PER_CENT = 10_000;

/** Micro-dollars in one US dollar. */
export const MICROS_PER_USD = 1_000_000;

/** Platform fee on the landing/WAF agent-payment path, in basis points (docs/SPEC.md "Limits": 4.7%). */
export const PLATFORM_FEE_BPS = 470;

/** The platform fee as prose, e.g. "4.7%". */
export const PLATFORM_FEE_TEXT = `${PLATFORM_FEE_BPS / 100}%`;

/** Metered spend cap per buyer per publisher per UTC month: 1,000 USD (docs/SPEC.md "Limits"). */
export const METERED_CAP_MICROS = 1_000_000_000;

/** Monthly subscription rate card per publisher, in micros (docs/SPEC.md "Rate card"). */
export const RATE_CARD = {
  base: 50 * MICROS_PER_USD,
  summarization: 10 * MICROS_PER_USD,
  display: 50 * MICROS_PER_USD,
  rag: 25 * MICROS_PER_USD,
} as const;

/** A use case that can be bought on the rate card (fine_tuning goes through request_license). */
export type RateCardUseCase = "summarization" | "display" | "rag";

/** The fee and the total an agent pays on the landing path. */
export interface PriceWithFee {
  /** Publisher price plus the platform fee, in micros. */
  total: number;
  /** Platform fee alone, in micros. */
  fee: number;
}

/** Convert US cents (fractional allowed, e.g. 0.5) to integer micros. */
export function centsToMicros(cents: number): number {
  return scaleToMicros(cents, MICROS_PER_CENT, "cents");
}

/** Convert US dollars to integer micros. */
export function usdToMicros(usd: number): number {
  return scaleToMicros(usd, MICROS_PER_USD, "USD");
}

/** Convert micros to cents exactly (may be fractional): for advertised per-use prices. */
export function microsToCents(micros: number): number {
  assertMicros(micros);
  return micros / MICROS_PER_CENT;
}

// One formatter each, made once: `toLocaleString()` builds its formatter on every call (13 µs,
// against 0.3 µs for a kept one), and a charged read writes its price into its sentence.
const GROUPED = new Intl.NumberFormat("en-US");
const PRICE = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 6,
});

/** Wire prose: whole dollars, e.g. "1,000 USD" (amounts that are whole dollars, like the cap). */
export function usdText(micros: number): string {
  assertMicros(micros);
  return `${GROUPED.format(micros / MICROS_PER_USD)} USD`;
}

/**
 * Wire prose: a per-use price, e.g. "0.05 USD" or "0.005 USD" (at least 2, at most 6 decimals,
 * thousands grouped). Written from the micros' digits as `PRICE` formats them (exact even where the
 * float division is not): every charged read puts its price in its sentence, and ICU's formatting
 * was most of that sentence's cost.
 */
export function usdPriceText(micros: number): string {
  assertMicros(micros);
  const digits = String(Math.abs(micros)).padStart(7, "0");
  const whole = digits.slice(0, -6).replace(/\B(?=(\d{3})+$)/g, ",");
  const fraction = digits.slice(-6).replace(/0+$/, "").padEnd(2, "0");
  return `${micros < 0 ? "-" : ""}${whole}.${fraction} USD`;
}

/** Wire prose: a per-use price in US cents as agents read it, e.g. 0.5 → "0.5¢". */
export function centsText(cents: number): string {
  return `${microsToCents(centsToMicros(cents))}¢`;
}

/**
 * Wire amounts: micros as an exact decimal USD string, at least two decimals, zeros trimmed beyond
 * them: 12_345 → "0.012345", 50_000 → "0.05", 0 → "0.00" (RSL `<amount>`, `crawler-price`).
 */
export function usdDecimal(micros: number): string {
  if (!Number.isSafeInteger(micros) || micros < 0) {
    throw new RangeError(`Cannot write ${micros} micros as a USD amount: not whole micros >= 0`);
  }
  const digits = String(micros).padStart(7, "0");
  const fraction = digits.slice(-6).replace(/0+$/, "").padEnd(2, "0");
  return `${digits.slice(0, -6)}.${fraction}`;
}

const CENTS = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 * Pages: an amount in US cents (the unit of every `...UsdCents` field, fractional allowed) as a
 * person reads money, rounded half-up to the cent as statements round: "$12.34", "$1,000.00",
 * "-$3.10", "$339.81" for 33,980.7478¢. Exports and the API keep the micro-dollars; a per-use price
 * is a rate and shows its own precision (`formatRate`). Issue 42.
 */
export function formatUsd(cents: number): string {
  const whole = microsToWholeCents(centsToMicros(Math.abs(cents)));
  return `${cents < 0 && whole > 0 ? "-" : ""}$${CENTS.format(whole / 100)}`;
}

/**
 * Pages: a per-use price (a rate, not an amount billed) to the micro-dollar, at least two
 * decimals: "$0.005" a read, "$0.05", "$1.00".
 */
export function formatRate(cents: number): string {
  const micros = centsToMicros(Math.abs(cents));
  return `${cents < 0 && micros > 0 ? "-" : ""}$${PRICE.format(micros / MICROS_PER_USD)}`;
}

/** Pages: the value of a dollar field in a form, e.g. 1250 → "12.50", 0.5 → "0.005" (`usdDecimal`). */
export function usdField(cents: number): string {
  return usdDecimal(centsToMicros(cents));
}

/** Pages: the exact sum of amounts in US cents (fractional allowed), added up in micros. */
export function sumCents(amounts: readonly number[]): number {
  return microsToCents(amounts.reduce((total, cents) => total + centsToMicros(cents), 0));
}

/** Pages: US cents as a number of dollars, for chart scales and the value of a dollar field. */
export function centsToUsd(cents: number): number {
  return Math.sign(cents) * centsToMicros(Math.abs(cents)) / MICROS_PER_USD;
}

/**
 * Pages: dollars typed in a form as US cents to the micro-dollar (4 places of a cent); with
 * `whole`, rounded half-up to the cent. The sign is kept and nothing is refused, so the API names
 * any problem with the amount.
 */
export function usdToCents(usd: number, whole = false): number {
  const micros = Math.round(Number((usd * MICROS_PER_USD).toPrecision(15)));
  return whole ? Math.round(micros / MICROS_PER_CENT) : micros / MICROS_PER_CENT;
}

/** Convert micros to whole cents rounded half-up: for totals and statements. */
export function microsToWholeCents(micros: number): number {
  assertMicros(micros);
  return Number(divideHalfUp(BigInt(micros), BigInt(MICROS_PER_CENT)));
}

/** The exact sum of amounts in micros (spend, earnings, a price and its fee). */
export function sumMicros(amounts: readonly number[]): number {
  let total = 0;
  for (const micros of amounts) {
    assertMicros(micros);
    total += micros;
  }
  assertMicros(total);
  return total;
}

/** `from` less `amount`, in micros; negative when `amount` is larger (a budget overspent). */
export function subtractMicros(from: number, amount: number): number {
  assertMicros(from);
  assertMicros(amount);
  const left = from - amount;
  assertMicros(left);
  return left;
}

/** Add the 4.7% platform fee (rounded half-up to whole micros) to a publisher price. */
export function withPlatformFee(micros: number): PriceWithFee {
  assertMicros(micros);
  if (micros < 0) {
    throw new RangeError(`Cannot add a platform fee to a price: ${micros} is negative`);
  }
  const fee = Number(divideHalfUp(BigInt(micros) * BigInt(PLATFORM_FEE_BPS), 10_000n));
  return { total: micros + fee, fee };
}

/**
 * Proration as Stripe does it (docs/decisions/billing.md "Proration"): the fee for `partSeconds` of
 * a `periodSeconds` period, `micros × part / period`, rounded half-up to whole micros.
 */
export function prorateMicros(micros: number, partSeconds: number, periodSeconds: number): number {
  assertMicros(micros);
  if (
    !Number.isSafeInteger(partSeconds) || !Number.isSafeInteger(periodSeconds) ||
    periodSeconds <= 0 || partSeconds < 0 || partSeconds > periodSeconds
  ) {
    throw new RangeError(`Cannot prorate over ${partSeconds} of ${periodSeconds} seconds`);
  }
  return Number(divideHalfUp(BigInt(micros) * BigInt(partSeconds), BigInt(periodSeconds)));
}

/** Monthly subscription price in micros: base access plus each chosen use case (docs/SPEC.md "Rate card"). */
export function priceSubscription(useCases: readonly string[]): number {
  let total: number = RATE_CARD.base;
  // A Set so that ["rag", "rag"] is not billed twice.
  for (const useCase of new Set(useCases)) {
    if (useCase === "fine_tuning") {
      // docs/SPEC.md "License": fine_tuning is never part of the standard bundle.
      throw new RangeError(
        'Cannot price use case "fine_tuning": it is requested per publisher through request_license',
      );
    }
    if (!isRateCardUseCase(useCase)) {
      throw new RangeError(`Cannot price use case "${useCase}": it is not on the rate card`);
    }
    total += RATE_CARD[useCase];
  }
  return total;
}

function isRateCardUseCase(value: string): value is RateCardUseCase {
  return value === "summarization" || value === "display" || value === "rag";
}

function scaleToMicros(amount: number, factor: number, unit: string): number {
  if (!Number.isFinite(amount) || amount < 0) {
    throw new RangeError(`Cannot convert ${unit} to micros: ${amount} is not a finite amount >= 0`);
  }
  // toPrecision(15) drops binary noise (4.35 * 10_000 = 43499.999…) before rounding.
  const micros = Math.round(Number((amount * factor).toPrecision(15)));
  if (!Number.isSafeInteger(micros)) {
    throw new RangeError(`Cannot convert ${unit} to micros: ${amount} is too large`);
  }
  return micros;
}

function assertMicros(micros: number): void {
  if (!Number.isSafeInteger(micros)) {
    throw new RangeError(`Invalid micros: ${micros} is not a safe integer`);
  }
}

/** Integer division rounding half-up (towards +∞ on ties), exact for any size. */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  const doubled = numerator * 2n + denominator;
  const divisor = denominator * 2n;
  // BigInt division truncates towards zero; floor it for negative numerators.
  const quotient = doubled / divisor;
  return doubled % divisor < 0n ? quotient - 1n : quotient;
}

/** Per-use prices in micros as the US cents the APIs show (fractional cents allowed). */
export function pricesInCents(
  prices: { summarization: number; display: number; rag: number },
): { summarization: number; display: number; rag: number } {
  return {
    summarization: microsToCents(prices.summarization),
    display: microsToCents(prices.display),
    rag: microsToCents(prices.rag),
  };
}

/** Whether `spent` has reached `percent`% of a positive `limit` (same unit), exactly in integers. */
export function reachedPercent(spent: number, limit: number, percent: number): boolean {
  return limit > 0 && spent * 100 >= limit * percent;
}

/** `from - amount` in whole cents (an invoice's fees as its total less its subtotal). */
export function subtractCents(from: number, amount: number): number {
  if (!Number.isInteger(from) || !Number.isInteger(amount)) {
    throw new RangeError("subtractCents takes whole cents");
  }
  return from - amount;
}

/**
 * Payouts on collected money (docs/decisions/billing.md "Payouts paid"): `share` of an invoice's
 * `total` when `collected` of it was paid, rounded down (never pay out money not received); a
 * settled invoice (collected >= total) gives the whole share.
 */
export function collectedShareMicros(share: number, collected: number, total: number): number {
  assertMicros(share);
  assertMicros(collected);
  assertMicros(total);
  if (total <= 0 || collected >= total || share <= 0) return share;
  if (collected <= 0) return 0;
  return Number(BigInt(share) * BigInt(collected) / BigInt(total));
}

/**
 * `micros` split across `weights` in proportion, each share whole micros and the shares adding up
 * to `micros` exactly (largest remainder: the rounding goes to the largest fractions, first first).
 */
export function allocateMicros(micros: number, weights: readonly number[]): number[] {
  assertMicros(micros);
  const total = sumMicros(weights);
  if (total <= 0) throw new RangeError("Cannot allocate over weights that add up to nothing");
  const exact = weights.map((w) => BigInt(w) * BigInt(micros));
  const shares = exact.map((e) => Number(e / BigInt(total)));
  let left = micros - shares.reduce((t, s) => t + s, 0);
  const order = exact.map((e, i) => ({ i, rest: e % BigInt(total) }))
    .sort((a, b) => (a.rest === b.rest ? a.i - b.i : a.rest > b.rest ? -1 : 1));
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i]++;
    left--;
  }
  return shares;
}

/** True when `micros` is a whole number of cents (money that moved: a payment, a card charge). */
export function isWholeCents(micros: number): boolean {
  assertMicros(micros);
  return micros % MICROS_PER_CENT === 0;
}

/** The whole cents in `micros`, rounded down, in micros (usable credit leaves the sub-cent rest). */
export function wholeCentsBelow(micros: number): number {
  assertMicros(micros);
  return micros - (micros % MICROS_PER_CENT);
}

/**
 * Amounts in micros as the whole cents a document prints under a total of `totalCents` (default:
 * their sum rounded once, half-up): each line is its own amount rounded down or up, the largest
 * remainders rounding up (the smallest down, when the total asks for less), so the lines add up to
 * the total as printed (docs/decisions/billing.md "One rounding rule"). A line of whole cents keeps
 * its value unless the total leaves no other way; a line of nothing stays nothing.
 */
export function splitCents(micros: readonly number[], totalCents?: number): number[] {
  const target = totalCents ?? microsToWholeCents(sumMicros(micros));
  const shares = micros.map((m) => Math.floor(m / MICROS_PER_CENT));
  const rest = micros.map((m, i) => m - shares[i] * MICROS_PER_CENT);
  let left = target - shares.reduce((t, s) => t + s, 0);
  const order = micros.map((_, i) => i).filter((i) => micros[i] !== 0);
  if (order.length === 0) return shares;
  // Up: largest remainder first; down: smallest remainder first, never a line below nothing.
  order.sort((a, b) => left >= 0 ? rest[b] - rest[a] || a - b : rest[a] - rest[b] || a - b);
  for (let k = 0; left !== 0 && k < order.length * 4; k++) {
    const i = order[k % order.length];
    if (left > 0) {
      shares[i]++;
      left--;
    } else if (shares[i] > 0 || micros[i] < 0) {
      shares[i]--;
      left++;
    }
  }
  return shares;
}

/** The cents a priced document prints: lines (price, fee, amount), subtotal, fees, total. */
export interface PrintedCents {
  lines: { priceCents: number; feeCents: number; amountCents: number }[];
  /** The publishers' prices: their sum rounded once. */
  subtotalCents: number;
  /** The platform fees: the total less the subtotal, so the three add up as printed. */
  feesCents: number;
  /** Prices and fees: their sum rounded once. */
  totalCents: number;
}

/**
 * The one rounding rule for a document of lines each with a price and a platform fee (a statement,
 * an invoice, a payout statement): the total and the subtotal are micro-dollar sums rounded once;
 * the fees are the difference; each column is split to the cent (`splitCents`) and a line's
 * amount is its price plus its fee, so rows and columns add up as printed.
 */
export function printedCents(
  lines: readonly { priceMicros: number; feeMicros: number }[],
): PrintedCents {
  const totalCents = microsToWholeCents(sumMicros(lines.map((l) => l.priceMicros + l.feeMicros)));
  const subtotalCents = microsToWholeCents(sumMicros(lines.map((l) => l.priceMicros)));
  const feesCents = totalCents - subtotalCents;
  const prices = splitCents(lines.map((l) => l.priceMicros), subtotalCents);
  const fees = splitCents(lines.map((l) => l.feeMicros), feesCents);
  return {
    lines: lines.map((_, i) => ({
      priceCents: prices[i],
      feeCents: fees[i],
      amountCents: prices[i] + fees[i],
    })),
    subtotalCents,
    feesCents,
    totalCents,
  };
}

/**
 * Pages: an amount of one ledger item in micros: a single read's (`perUse`) is a per-use price and
 * keeps its precision (`formatRate`, "$0.005"); any other, a license fee, is cents (`formatUsd`).
 */
export function formatItemUsd(micros: number, perUse: boolean): string {
  return perUse ? formatRate(microsToCents(micros)) : formatUsd(microsToCents(micros));
}

/** The sum of whole cents of either sign (printed lines, credit notes among them). */
export function addCents(amounts: readonly number[]): number {
  let total = 0;
  for (const cents of amounts) {
    if (!Number.isSafeInteger(cents)) throw new RangeError("addCents takes whole cents");
    total += cents;
  }
  return total;
}
