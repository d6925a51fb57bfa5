/**
 * Proration and renewal dates (docs/decisions/billing.md "Proration"): Stripe's model, to the
 * second over the UTC calendar month, amounts rounded half-up to the micro-dollar.
 */
import assert from "node:assert/strict";
import { prorateMicros } from "../../platform/money.ts";
import { cancelEffect } from "./cancel.ts";
import { firstCharge, periodOf, renewsAt } from "./periods.ts";

Deno.test("prorateMicros: exact, half-up, and refuses parts outside the period", () => {
  assert.equal(prorateMicros(300_000_000, 1_339_200, 2_592_000), 155_000_000);
  assert.equal(prorateMicros(100_000_000, 1, 3), 33_333_333);
  assert.equal(prorateMicros(100_000_000, 2, 3), 66_666_667, "half-up");
  assert.equal(prorateMicros(1, 1, 2), 1, "a half micro rounds up");
  assert.equal(prorateMicros(0, 10, 20), 0);
  assert.equal(prorateMicros(1_000_000_000_000, 2_678_399, 2_678_400), 999_999_626_643);
  for (const [part, period] of [[-1, 10], [11, 10], [1, 0], [0.5, 10]]) {
    assert.throws(() => prorateMicros(100, part, period), RangeError);
  }
});

Deno.test("firstCharge bills the seconds left of the UTC month; the started second is the buyer's", () => {
  const mid = firstCharge(300_000_000, new Date("2026-11-15T12:00:00Z"));
  assert.deepEqual(mid, {
    month: "2026-11",
    micros: 155_000_000,
    periodEnd: new Date("2026-12-01T00:00:00Z"),
    secondsBilled: 1_339_200,
    periodSeconds: 2_592_000,
  });
  assert.equal(firstCharge(300_000_000, new Date("2026-11-01T00:00:00Z")).micros, 300_000_000);
  // 0.5 s into the last second of February 2027 (28 days): 0 whole seconds left.
  const last = firstCharge(280_000_000, new Date("2027-02-28T23:59:59.500Z"));
  assert.deepEqual([last.micros, last.periodSeconds], [0, 2_419_200]);
  // One day of a 31-day month.
  assert.equal(firstCharge(31_000_000, new Date("2026-12-31T00:00:00Z")).micros, 1_000_000);
  assert.equal(
    periodOf(new Date("2026-12-31T23:59:59Z")).end.toISOString(),
    "2027-01-01T00:00:00.000Z",
  );
});

Deno.test("renewsAt: the next 1st for an active priced license, else null", () => {
  const now = new Date("2026-11-15T12:00:00Z");
  const base = {
    state: "active" as const,
    monthlyFeeMicros: 1,
    cancelRequestedAt: null,
    expiresAt: null,
  };
  assert.equal(renewsAt(base, now)?.toISOString(), "2026-12-01T00:00:00.000Z");
  assert.equal(renewsAt({ ...base, monthlyFeeMicros: 0 }, now), null, "free");
  assert.equal(renewsAt({ ...base, cancelRequestedAt: 1 }, now), null, "canceled");
  assert.equal(renewsAt({ ...base, state: "pending" }, now), null);
  const termEnds = Date.parse("2026-12-01T00:00:00Z");
  assert.equal(renewsAt({ ...base, expiresAt: termEnds }, now), null, "the term ends first");
  assert.ok(renewsAt({ ...base, expiresAt: Date.parse("2027-01-01T00:00:00Z") }, now));
});

Deno.test("cancelEffect: access to the period's end, nothing credited or charged, the renewal forgone", () => {
  const now = new Date("2026-11-15T12:00:00Z");
  const active = {
    state: "active" as const,
    monthlyFeeMicros: 100_000_000,
    cancelRequestedAt: null,
    expiresAt: null,
    canceledAt: null,
  };
  const e = cancelEffect(active, now);
  assert.deepEqual({ ...e, summary: "" }, {
    mode: "period_end",
    accessUntil: new Date("2026-12-01T00:00:00Z"),
    creditMicros: 0,
    chargedMicros: 0,
    forgoneRenewalMicros: 100_000_000,
    summary: "",
  });
  const done = cancelEffect({
    ...active,
    cancelRequestedAt: now.getTime(),
    expiresAt: Date.parse("2026-12-01T00:00:00Z"),
  }, now);
  assert.equal(done.forgoneRenewalMicros, 100_000_000, "what canceling did, said again");
  const term = cancelEffect({ ...active, expiresAt: Date.parse("2026-11-20T00:00:00Z") }, now);
  assert.deepEqual([term.accessUntil.toISOString(), term.forgoneRenewalMicros], [
    "2026-11-20T00:00:00.000Z",
    0,
  ]);
  const pending = cancelEffect({ ...active, state: "pending" }, now);
  assert.equal(pending.mode, "immediately");
});
