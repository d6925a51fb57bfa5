/**
 * Cloudflare's pay-per-crawl dialect, spoken exactly (docs/DESIGN.md "Landing path"): a priced page
 * answers 402 with `crawler-price: USD <amount>`; a retry that offers `crawler-exact-price` (equal
 * to the price) or `crawler-max-price` (at least the price) with a buyer credential is served with
 * `crawler-charged`; every refusal names its code in `crawler-error`.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { parseCrawlerPrice } from "./crawler_price.ts";

/** The `crawler-error` codes and the status each is answered with. */
export const CRAWLER_ERRORS = {
  CrawlerForbidden: 403,
  StrongAuthRequired: 400,
  InvalidSignature: 400,
  InvalidCrawlerPriceValue: 400,
  MissingCrawlerPrice: 402,
  PaymentFailed: 403,
  InvalidCrawlerExactPrice: 402,
  InvalidCrawlerMaxPrice: 402,
  ConflictingPriceHeaders: 400,
  InternalError: 500,
} as const satisfies Record<string, ContentfulStatusCode>;

/** A `crawler-error` code. */
export type CrawlerErrorCode = keyof typeof CRAWLER_ERRORS;

/** A refusal in the dialect; `priceMicros` adds `crawler-price` (what the page costs). */
export class CrawlerError extends Error {
  override name = "CrawlerError";
  readonly status: ContentfulStatusCode;
  constructor(
    readonly code: CrawlerErrorCode,
    message: string,
    readonly priceMicros: number | null = null,
  ) {
    super(message);
    this.status = CRAWLER_ERRORS[code];
  }
}

/** What a request offers to pay: nothing, an exact price, or a ceiling (micro-dollars). */
export type PriceOffer =
  | { kind: "none" }
  | { kind: "exact"; micros: number; header: "crawler-exact-price" }
  | { kind: "max"; micros: number; header: "crawler-max-price" };

/** Reads the offer; both headers at once, or a malformed value, is refused. */
export function priceOffer(headers: Headers): PriceOffer {
  const exact = headers.get("crawler-exact-price");
  const max = headers.get("crawler-max-price");
  if (exact !== null && max !== null) {
    throw new CrawlerError(
      "ConflictingPriceHeaders",
      "Send one of crawler-exact-price and crawler-max-price, not both.",
    );
  }
  if (exact === null && max === null) return { kind: "none" };
  const header = exact !== null ? "crawler-exact-price" : "crawler-max-price";
  const micros = parseCrawlerPrice((exact ?? max)!);
  if (micros === null) {
    throw new CrawlerError(
      "InvalidCrawlerPriceValue",
      `${header} must read like "USD 0.01" (US dollars, up to six decimals).`,
    );
  }
  return header === "crawler-exact-price"
    ? { kind: "exact", micros, header }
    : { kind: "max", micros, header };
}

/**
 * Checks an offer against the page's price (the total the buyer is billed). Null when it pays;
 * else the refusal, which carries the price so the crawler can retry.
 */
export function refusalOf(offer: PriceOffer, priceMicros: number): CrawlerError | null {
  switch (offer.kind) {
    case "none":
      return new CrawlerError(
        "MissingCrawlerPrice",
        "This page is paid: retry with crawler-exact-price or crawler-max-price and a buyer credential.",
        priceMicros,
      );
    case "exact":
      return offer.micros === priceMicros ? null : new CrawlerError(
        "InvalidCrawlerExactPrice",
        "crawler-exact-price does not match this page's crawler-price.",
        priceMicros,
      );
    case "max":
      return offer.micros >= priceMicros ? null : new CrawlerError(
        "InvalidCrawlerMaxPrice",
        "crawler-max-price is below this page's crawler-price.",
        priceMicros,
      );
  }
}
