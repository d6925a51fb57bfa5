/** The credit balance (issue 38): grants are idempotent per source, use is capped and once per invoice. */
import assert from "node:assert/strict";
import { creditBalance, grantCredit, useCredit } from "../server/domain/billing/credits.ts";
import { apiSignup } from "./buyer_helpers.ts";
import { testFolio } from "./helpers.ts";

Deno.test("grantCredit adds once per source id; useCredit takes whole cents once per invoice", async () => {
  await using folio = await testFolio();
  const { buyerId } = await apiSignup(folio);
  const db = folio.store.db;
  const now = folio.clock.now();
  await grantCredit(db, {
    buyerId,
    amountMicros: 1_234_567,
    source: "credit_note",
    sourceId: "cn_1",
    now,
  });
  await grantCredit(db, {
    buyerId,
    amountMicros: 1_234_567,
    source: "credit_note",
    sourceId: "cn_1",
    now,
  });
  assert.equal(await creditBalance(db, buyerId), 1_234_567);
  await assert.rejects(
    grantCredit(db, { buyerId, amountMicros: -5, source: "overpayment", sourceId: "x", now }),
    RangeError,
  );
  assert.equal(
    await useCredit(db, { buyerId, invoiceSeq: 7, upToMicros: 5_000_000, now }),
    1_230_000,
  );
  assert.equal(await useCredit(db, { buyerId, invoiceSeq: 7, upToMicros: 5_000_000, now }), 0);
  assert.equal(await creditBalance(db, buyerId), 4_567);
});
