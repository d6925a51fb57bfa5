import * as assert from "node:assert/strict";
import { usdPriceText } from "../server/platform/money.ts";

Deno.test("usdPriceText() writes a price as ICU's en-US formatter would, exactly from its micros", () => {
  const table: [number, string][] = [
    [0, "0.00 USD"],
    [5_000, "0.005 USD"],
    [50_000, "0.05 USD"],
    [1, "0.000001 USD"],
    [1_234_567, "1.234567 USD"],
    [1_000_000_000, "1,000.00 USD"],
    [12_345_678_901, "12,345.678901 USD"],
    [-5_000, "-0.005 USD"],
    // Past 2^53 micros / 10^6 the float division rounds; the digits do not.
    [Number.MAX_SAFE_INTEGER, "9,007,199,254.740991 USD"],
  ];
  for (const [micros, text] of table) assert.equal(usdPriceText(micros), text, String(micros));
  const icu = new Intl.NumberFormat("en-US", {
    minimumFractionDigits: 2,
    maximumFractionDigits: 6,
  });
  for (let digits = 1; digits <= 15; digits++) {
    for (const lead of [1, 4, 9]) {
      const micros = Number(String(lead).padEnd(digits, "7"));
      assert.equal(usdPriceText(micros), `${icu.format(micros / 1_000_000)} USD`, String(micros));
    }
  }
  assert.throws(() => usdPriceText(0.5), RangeError);
});
