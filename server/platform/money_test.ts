import assert from "node:assert/strict";
import {
  addCents,
  centsText,
  centsToMicros,
  centsToUsd,
  formatRate,
  formatUsd,
  METERED_CAP_MICROS,
  microsToCents,
  microsToWholeCents,
  PLATFORM_FEE_BPS,
  priceSubscription,
  printedCents,
  RATE_CARD,
  splitCents,
  usdDecimal,
  usdText,
  usdToCents,
  usdToMicros,
  withPlatformFee,
} from "./money.ts";

Deno.test("centsToMicros() converts whole and fractional cents to integer micros", () => {
  const cases: [number, number][] = [
    [0, 0],
    [0.5, 5_000],
    [1, 10_000],
    [5, 50_000],
    [4.35, 43_500],
    [0.00004, 0],
    [0.00005, 1],
    [100_000, 1_000_000_000],
  ];
  for (const [cents, micros] of cases) assert.equal(centsToMicros(cents), micros, `${cents} cents`);
});

Deno.test("centsToMicros() rejects negative, NaN and infinite amounts with a RangeError", () => {
  for (const bad of [-1, -0.5, NaN, Infinity, -Infinity]) {
    assert.throws(() => centsToMicros(bad), RangeError, `${bad}`);
  }
});

Deno.test("usdToMicros() converts dollars and rejects bad amounts", () => {
  assert.equal(usdToMicros(1), 1_000_000);
  assert.equal(usdToMicros(0.015), 15_000);
  assert.equal(usdToMicros(1_000), METERED_CAP_MICROS);
  assert.throws(() => usdToMicros(-1), RangeError);
  assert.throws(() => usdToMicros(NaN), RangeError);
});

Deno.test("microsToCents() is exact and may be fractional", () => {
  assert.equal(microsToCents(5_000), 0.5);
  assert.equal(microsToCents(50_000), 5);
  assert.equal(microsToCents(1), 0.0001);
  assert.equal(microsToCents(centsToMicros(4.35)), 4.35);
  assert.throws(() => microsToCents(0.5), RangeError);
});

Deno.test("microsToWholeCents() rounds half-up to integer cents", () => {
  const cases: [number, number][] = [
    [0, 0],
    [4_999, 0],
    [5_000, 1],
    [14_999, 1],
    [15_000, 2],
    [52_350, 5],
    [55_000, 6],
    [1_000_000_000, 100_000],
  ];
  for (const [micros, cents] of cases) assert.equal(microsToWholeCents(micros), cents, `${micros}`);
  assert.throws(() => microsToWholeCents(NaN), RangeError);
});

Deno.test("withPlatformFee() adds 4.7% rounded half-up to whole micros", () => {
  assert.equal(PLATFORM_FEE_BPS, 470);
  // 0.5 cents: 5_000 micros, fee exactly 235.
  assert.deepEqual(withPlatformFee(5_000), { total: 5_235, fee: 235 });
  // 5 cents: 50_000 micros, fee 2_350.
  assert.deepEqual(withPlatformFee(50_000), { total: 52_350, fee: 2_350 });
  // 10 micros × 4.7% = 0.47 → 0; 11 → 0.517 → 1; 50 → 2.35 → 2; 150 → 7.05 → 7.
  assert.deepEqual(withPlatformFee(10), { total: 10, fee: 0 });
  assert.deepEqual(withPlatformFee(11), { total: 12, fee: 1 });
  assert.deepEqual(withPlatformFee(150), { total: 157, fee: 7 });
  assert.deepEqual(withPlatformFee(1_000), { total: 1_047, fee: 47 });
  assert.deepEqual(withPlatformFee(0), { total: 0, fee: 0 });
  assert.throws(() => withPlatformFee(-1), RangeError);
  assert.throws(() => withPlatformFee(1.5), RangeError);
});

Deno.test("withPlatformFee() rounds an exact half micro up", () => {
  // 12_500 × 4.7% = 587.5 → 588.
  assert.deepEqual(withPlatformFee(12_500), { total: 13_088, fee: 588 });
});

Deno.test("priceSubscription() adds chosen components to the base access price", () => {
  assert.equal(RATE_CARD.base, 50_000_000);
  assert.equal(priceSubscription([]), 50_000_000);
  assert.equal(priceSubscription(["summarization"]), 60_000_000);
  assert.equal(priceSubscription(["display", "rag"]), 125_000_000);
  assert.equal(priceSubscription(["summarization", "display", "rag"]), 135_000_000);
  assert.equal(priceSubscription(["rag", "rag"]), 75_000_000);
});

Deno.test("priceSubscription() refuses fine_tuning and unknown use cases", () => {
  assert.throws(() => priceSubscription(["fine_tuning"]), /request_license/);
  assert.throws(() => priceSubscription(["display", "training"]), /"training"/);
});

Deno.test("formatUsd() writes every amount on pages in cents, rounded half-up", () => {
  assert.equal(formatUsd(1234), "$12.34");
  assert.equal(formatUsd(33_980.7478), "$339.81", "issue 42's accept button");
  assert.equal(formatUsd(41_262.1406), "$412.62");
  assert.equal(formatUsd(0.5), "$0.01", "half a cent rounds up, as statements round");
  assert.equal(formatUsd(0.4999), "$0.00");
  assert.equal(formatUsd(250), "$2.50");
  assert.equal(formatUsd(100_000), "$1,000.00");
  assert.equal(formatUsd(0), "$0.00");
  assert.equal(formatUsd(-310), "-$3.10");
  assert.equal(formatUsd(-0.1), "$0.00", "no minus sign on a figure that rounds to nothing");
  assert.throws(() => formatUsd(Number.NaN), RangeError);
});

Deno.test("formatRate() writes a per-use price to the micro-dollar", () => {
  assert.equal(formatRate(0.5), "$0.005");
  assert.equal(formatRate(5), "$0.05");
  assert.equal(formatRate(0.0001), "$0.000001");
  assert.equal(formatRate(100), "$1.00");
});

Deno.test("the wire's words for amounts stay as the APIs emit them", () => {
  assert.equal(centsText(0.5), "0.5¢");
  assert.equal(centsText(5), "5¢");
  assert.equal(usdText(METERED_CAP_MICROS), "1,000 USD");
  for (
    const [micros, text] of [
      [12_345, "0.012345"],
      [50_000, "0.05"],
      [500_000, "0.50"],
      [0, "0.00"],
      [1, "0.000001"],
      [1_000_000, "1.00"],
      [Number.MAX_SAFE_INTEGER, "9007199254.740991"],
    ] as const
  ) assert.equal(usdDecimal(micros), text);
  assert.throws(() => usdDecimal(-1), RangeError);
  assert.throws(() => usdDecimal(0.5), RangeError);
});

Deno.test("pages convert between dollars and cents exactly", () => {
  assert.equal(centsToUsd(1250), 12.5);
  assert.equal(centsToUsd(0.5), 0.005);
  assert.equal(centsToUsd(4.35), 0.0435);
  assert.equal(centsToUsd(-100), -1);
  assert.equal(usdToCents(0.05), 5);
  assert.equal(usdToCents(0.0435), 4.35);
  assert.equal(usdToCents(0.000049), 0.0049);
  assert.equal(usdToCents(12.345, true), 1235);
  assert.equal(usdToCents(-1), -100);
});

Deno.test("splitCents() prints lines that add up to their total rounded once", () => {
  // 3 reads at 0.5¢ and one at 0.4¢: 1.9¢ in all, 2¢ printed; rounding each would print 3¢.
  const reads = [5_000, 5_000, 5_000, 4_000];
  assert.deepEqual(splitCents(reads), [1, 1, 0, 0]);
  assert.equal(microsToWholeCents(19_000), 2);
  // Whole cents keep their value; nothing stays nothing; a total asking for less rounds down.
  assert.deepEqual(splitCents([10_000, 0, 15_000]), [1, 0, 2]);
  assert.deepEqual(splitCents([15_000, 15_000], 2), [1, 1]);
  assert.deepEqual(splitCents([0, 0]), [0, 0]);
  // A credit note (negative) is split like any line.
  assert.deepEqual(splitCents([812_303_400, -5_000]), [81_230, 0]);
  for (let seed = 1; seed < 200; seed++) {
    const lines = Array.from(
      { length: 1 + (seed % 7) },
      (_, i) => (seed * 7_919 * (i + 3)) % 90_001,
    );
    const shown = splitCents(lines);
    assert.equal(
      shown.reduce((t, c) => t + c, 0),
      microsToWholeCents(lines.reduce((t, m) => t + m, 0)),
    );
    shown.forEach((c, i) =>
      assert.ok(Math.abs(c * 10_000 - lines[i]) < 10_000, `${lines[i]} → ${c}`)
    );
  }
});

Deno.test("printedCents(): lines, subtotal, fees and total add up by row and by column", () => {
  // The month: 23,033.6¢ of reads and a 80,930¢ licence, plus a landing read with its fee.
  const lines = [
    { priceMicros: 230_336_000, feeMicros: 0 },
    { priceMicros: 809_300_000, feeMicros: 0 },
    { priceMicros: 45_000, feeMicros: 2_115 },
  ];
  const p = printedCents(lines);
  assert.equal(p.totalCents, microsToWholeCents(230_336_000 + 809_300_000 + 47_115));
  assert.equal(p.subtotalCents + p.feesCents, p.totalCents);
  assert.equal(p.lines.reduce((t, l) => t + l.priceCents, 0), p.subtotalCents);
  assert.equal(p.lines.reduce((t, l) => t + l.feeCents, 0), p.feesCents);
  assert.equal(p.lines.reduce((t, l) => t + l.amountCents, 0), p.totalCents);
  for (const l of p.lines) assert.equal(l.priceCents + l.feeCents, l.amountCents);
  assert.deepEqual(p.lines.map((l) => l.feeCents), [0, 0, 0]);
  // A credit note (a negative line with its negative fee) adds up the same way.
  const credited = printedCents([...lines, { priceMicros: -45_000, feeMicros: -2_115 }]);
  assert.equal(addCents(credited.lines.map((l) => l.amountCents)), credited.totalCents);
  assert.equal(addCents(credited.lines.map((l) => l.feeCents)), credited.feesCents);
  assert.throws(() => addCents([1.5]), RangeError);
});
