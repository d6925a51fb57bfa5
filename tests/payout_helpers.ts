/** Fixtures of the payout tests: the demo publisher's payee details put through the API. */
import type { TestFolio } from "./helpers.ts";
import { recordPayment } from "../server/domain/billing/receivables.ts";
import { receivablesSettings } from "../server/domain/billing/invoice_terms.ts";
import { bearer, sendJson } from "./manage_helpers.ts";

/** The demo's IBAN in the tests (a valid one: the checksum holds). */
export const IBAN = "DE89 3704 0044 0532 0130 00";

/** Puts the demo's payee details (an IBAN) through the API. */
export async function setPayee(folio: TestFolio, body: Record<string, unknown> = {}) {
  return await sendJson(folio, "PUT", "/api/publisher/payee", {
    legalName: "Demo Media GmbH",
    country: "DE",
    currency: "EUR",
    method: "iban",
    iban: IBAN,
    bic: "COBADEFFXXX",
    ...body,
  }, bearer(folio.seeded!.apiKey));
}

/** Records payment in full of every open invoice of `month` (as the operator would). */
export async function payInvoices(folio: TestFolio, month: string) {
  const open = await folio.store.db.execute({
    sql: "SELECT seq, amount_due_micros FROM invoices WHERE month = ? AND state = 'open'",
    args: [month],
  });
  for (const r of open.rows) {
    if (Number(r.amount_due_micros) === 0) continue;
    await recordPayment(folio.store.db, {
      seq: Number(r.seq),
      amountMicros: Number(r.amount_due_micros),
      paidOn: folio.clock.now().toISOString().slice(0, 10),
      method: "bank_transfer",
      reference: `test-${r.seq}`,
      idempotencyKey: `test-pay-${r.seq}`,
      actor: { kind: "operator", id: "op_test" },
    }, { now: folio.clock.now(), settings: receivablesSettings(folio.deps.config) });
  }
}
