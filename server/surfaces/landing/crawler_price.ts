/**
 * Cloudflare pay-per-crawl price header values (`crawler-price`, `crawler-exact-price`,
 * `crawler-max-price`): an ISO currency code, one space, a decimal amount, e.g. `USD 0.01`.
 * Only `USD` is accepted, in capitals as Cloudflare documents it: a lower-case `usd` is not the
 * code and is refused rather than guessed at. Amounts are read and written digit by digit into
 * integer micro-dollars (server/platform/money.ts), so no float rounding ever touches a price.
 *
 * @module
 */
import { MICROS_PER_USD, usdDecimal } from "../../platform/money.ts";

const DECIMALS = 6; // micro-dollars: a seventh decimal would be a fraction of a micro
// Whole dollars are capped at 9 digits so every amount stays a safe integer of micros.
const PRICE = /^USD (\d{1,9})(?:\.(\d{1,6}))?$/;

/** "USD 0.01" → 10000 micro-dollars; null when malformed (other currency, negative, >6 decimals, junk, NaN, exponent). */
export function parseCrawlerPrice(value: string): number | null {
  const m = PRICE.exec(value);
  if (!m) return null;
  const fraction = Number((m[2] ?? "").padEnd(DECIMALS, "0"));
  return Number(m[1]) * MICROS_PER_USD + fraction;
}

/** 10000 → "USD 0.01"; 47100 → "USD 0.0471"; 1234567 → "USD 1.234567" (money.ts `usdDecimal`). */
export function formatCrawlerPrice(micros: number): string {
  return `USD ${usdDecimal(micros)}`;
}
