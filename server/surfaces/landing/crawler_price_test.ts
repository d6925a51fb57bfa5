import assert from "node:assert/strict";
import { formatCrawlerPrice, parseCrawlerPrice } from "./crawler_price.ts";

Deno.test("parseCrawlerPrice reads USD amounts into micro-dollars", () => {
  const cases: [string, number][] = [
    ["USD 0.01", 10_000],
    ["USD 0.0471", 47_100],
    ["USD 1.234567", 1_234_567],
    ["USD 0.000001", 1],
    ["USD 0", 0],
    ["USD 0.00", 0],
    ["USD 5", 5_000_000],
    ["USD 12.5", 12_500_000],
    // Float parsing would give 0.30000000000000004-style noise here; digit reading does not.
    ["USD 0.3", 300_000],
    ["USD 4.35", 4_350_000],
    ["USD 999999999.999999", 999_999_999_999_999],
  ];
  for (const [value, micros] of cases) assert.equal(parseCrawlerPrice(value), micros, value);
});

Deno.test("parseCrawlerPrice refuses malformed values", () => {
  for (
    const value of [
      "usd 0.01", // Cloudflare documents the ISO code in capitals; we accept only that form
      "Usd 0.01",
      "EUR 0.01",
      "USD -0.01",
      "USD +0.01",
      "USD 0.0000001", // a seventh decimal is a fraction of a micro-dollar
      "USD 1e-2",
      "USD 1E2",
      "USD NaN",
      "USD Infinity",
      "USD .01",
      "USD 0.",
      "USD 0,01",
      "USD  0.01",
      "USD\t0.01",
      " USD 0.01",
      "USD 0.01 ",
      "USD0.01",
      "0.01",
      "USD",
      "",
      "USD 0x10",
      "USD 1_000",
      "USD 1000000000", // beyond 9 whole digits: not a safe number of micros for long
      "USD ٠.٠١", // Arabic-Indic digits are not ASCII digits
    ]
  ) assert.equal(parseCrawlerPrice(value), null, JSON.stringify(value));
});

Deno.test("formatCrawlerPrice writes at least two decimals and trims zeros beyond them", () => {
  const cases: [number, string][] = [
    [10_000, "USD 0.01"],
    [47_100, "USD 0.0471"],
    [1_234_567, "USD 1.234567"],
    [0, "USD 0.00"],
    [1, "USD 0.000001"],
    [100_000, "USD 0.10"],
    [5_000_000, "USD 5.00"],
    [12_500_000, "USD 12.50"],
    [999_999_999_999_999, "USD 999999999.999999"],
  ];
  for (const [micros, value] of cases) assert.equal(formatCrawlerPrice(micros), value, value);
  for (const bad of [-1, 0.5, NaN, Infinity, 2 ** 53]) {
    assert.throws(() => formatCrawlerPrice(bad), RangeError, String(bad));
  }
});

Deno.test("format then parse is the identity on micro-dollars", () => {
  for (
    const micros of [0, 1, 9, 10, 99, 100, 4_700, 10_000, 47_100, 99_999, 1_000_000, 1_234_567]
  ) {
    assert.equal(parseCrawlerPrice(formatCrawlerPrice(micros)), micros, String(micros));
  }
  for (let micros = 0; micros < 2_000_000; micros += 7_919) {
    assert.equal(parseCrawlerPrice(formatCrawlerPrice(micros)), micros, String(micros));
  }
  // And parse then format gives the canonical form.
  assert.equal(formatCrawlerPrice(parseCrawlerPrice("USD 0.010000")!), "USD 0.01");
  assert.equal(formatCrawlerPrice(parseCrawlerPrice("USD 007")!), "USD 7.00");
});
