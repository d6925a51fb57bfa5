/**
 * The payout run (issue 38 part 5; docs/OPERATIONS.md "Running a payout"): the operator approves a
 * batch of the payouts due up to a month, exports its payout file, and marks payouts paid with
 * the date and the bank's or provider's reference. Each step is one write transaction with its
 * audit entry (before and after); a payout enters a batch only by a conditional UPDATE, so a crash
 * or a second process can neither lose a step nor take a payout twice.
 */
import type { Client } from "../../../store/db.ts";
import { newId } from "../../../store/ids.ts";
import {
  batchById,
  batchPayout,
  findPayouts,
  insertBatch,
  markBatchExported,
  markPayoutPaid,
  type Payout,
  type PayoutBatch,
  payoutById,
  setReviewHold,
} from "../../../store/payouts.ts";
import { toCsv } from "../../platform/csv.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { sumMicros, usdDecimal } from "../../platform/money.ts";
import { type Actor, audit } from "../audit/audit.ts";
import { notify } from "../webhooks/events.ts";
import { payeesForExport } from "./payees.ts";
import { payoutsDue } from "./payouts_due.ts";

/**
 * Approves a batch of `month`: the payouts named (or, without names, every payout due up to the
 * month and not held), each paying what is due now. Refused, with nothing written: a payout held
 * (409 payout_held), already in a batch or paid (409 payout_already_batched), unknown (404), or
 * nothing to pay (409 nothing_to_pay).
 */
export async function approveBatch(
  db: Client,
  input: { month: string; payoutIds?: string[]; actor: Actor; now: Date },
): Promise<{ batch: PayoutBatch; payouts: Payout[] }> {
  const tx = await db.transaction("write");
  try {
    const due = await payoutsDue(tx, input.month);
    let chosen = due.filter((d) => d.holds.length === 0);
    if (input.payoutIds) {
      chosen = [];
      for (const id of new Set(input.payoutIds)) {
        const d = due.find((x) => x.payout.id === id);
        if (!d) {
          const p = await payoutById(tx, id);
          if (!p) throw notFound(`Payout "${id}"`);
          if (p.batchId || p.state === "paid") {
            throw new AppError(
              409,
              "payout_already_batched",
              `Payout "${id}" is already in batch ${p.batchId}; it is never paid twice`,
            );
          }
          throw new AppError(409, "payout_held", `Payout "${id}" is for a later month`);
        }
        if (d.holds.length > 0) {
          throw new AppError(
            409,
            "payout_held",
            `Payout "${id}" is held: ${d.holds.map((h) => h.reason).join("; ")}`,
          );
        }
        chosen.push(d);
      }
    }
    if (chosen.length === 0) {
      throw new AppError(409, "nothing_to_pay", `No payout up to ${input.month} is due and free`);
    }
    const batch: PayoutBatch = {
      id: newId("pb"),
      month: input.month,
      payoutCount: chosen.length,
      totalMicros: sumMicros(chosen.map((d) => d.dueMicros)),
      approvedBy: `${input.actor.kind}:${input.actor.id}`,
      createdAt: input.now.getTime(),
      exportedAt: null,
    };
    await insertBatch(tx, batch);
    for (const d of chosen) {
      if (!await batchPayout(tx, d.payout.id, batch.id, d.dueMicros)) {
        // Another process took it between our read and this write: nothing of this batch stays.
        throw new AppError(
          409,
          "payout_already_batched",
          `Payout "${d.payout.id}" was just put in another batch; it is never paid twice`,
        );
      }
    }
    const payouts: Payout[] = [];
    for (const d of chosen) {
      const after = (await payoutById(tx, d.payout.id))!;
      payouts.push(after);
      await audit(tx, {
        actor: input.actor,
        action: "payout.batched",
        subject: { kind: "payout", id: d.payout.id },
        before: stageOf(d.payout),
        after: stageOf(after),
        now: input.now,
      });
    }
    await audit(tx, {
      actor: input.actor,
      action: "payout_batch.approved",
      subject: { kind: "payout_batch", id: batch.id },
      before: null,
      after: batch,
      now: input.now,
    });
    await tx.commit();
    return { batch, payouts };
  } finally {
    tx.close();
  }
}

/** The columns of the payout file (docs/OPERATIONS.md "Running a payout"). */
export const PAYOUT_FILE_COLUMNS = [
  "payout_id",
  "batch_id",
  "month",
  "publisher_id",
  "legal_name",
  "country",
  "currency",
  "method",
  "iban",
  "bic",
  "account_number",
  "routing_number",
  "account_type",
  "provider",
  "email",
  "amount_usd",
  "amount_usd_micros",
  "remittance",
] as const;

/**
 * The batch's payout file: one row per payout, the payee's details in full (the one place they
 * are opened), amounts in USD (the payee's currency is the bank's conversion). Every export is
 * audited; the first sets the batch's `exportedAt`.
 */
export async function exportBatch(
  deps: { db: Client; secret: string | null },
  input: { batchId: string; actor: Actor; now: Date },
): Promise<{ batch: PayoutBatch; csv: string }> {
  const tx = await deps.db.transaction("write");
  try {
    const batch = await batchById(tx, input.batchId);
    if (!batch) throw notFound(`Payout batch "${input.batchId}"`);
    const { payouts } = await findPayouts(tx, { batchId: batch.id }, { limit: 10_000, offset: 0 });
    const payees = await payeesForExport(
      { db: deps.db, secret: deps.secret, now: input.now },
      tx,
      payouts.map((p) => p.publisherId),
    );
    const rows: (string | number)[][] = [[...PAYOUT_FILE_COLUMNS]];
    for (const p of payouts) {
      const payee = payees.get(p.publisherId);
      if (!payee) throw new Error(`payee details of ${p.publisherId} vanished from batch`);
      rows.push([
        p.id,
        batch.id,
        p.month,
        p.publisherId,
        payee.legalName,
        payee.country,
        payee.currency,
        payee.method,
        payee.method === "iban" ? payee.iban : "",
        payee.method === "iban" ? payee.bic ?? "" : "",
        payee.method === "us_account" ? payee.accountNumber : "",
        payee.method === "us_account" ? payee.routingNumber : "",
        payee.method === "us_account" ? payee.accountType : "",
        payee.method === "email" ? payee.provider : "",
        payee.method === "email" ? payee.email : "",
        usdDecimal(p.paidMicros ?? 0),
        p.paidMicros ?? 0,
        `Folio payout ${p.month} ${p.id}`,
      ]);
    }
    const first = await markBatchExported(tx, batch.id, input.now.getTime());
    await audit(tx, {
      actor: input.actor,
      action: "payout_batch.exported",
      subject: { kind: "payout_batch", id: batch.id },
      before: { exportedAt: batch.exportedAt },
      after: { exportedAt: first ? input.now.getTime() : batch.exportedAt, rows: payouts.length },
      now: input.now,
    });
    await tx.commit();
    return { batch: (await batchById(deps.db, batch.id))!, csv: toCsv(rows) };
  } finally {
    tx.close();
  }
}

/**
 * Marks payouts paid on `paidAt` with the transfer's `reference`: one payout, or every unpaid one
 * of a batch. Refused, with nothing written: not in a batch (409 payout_not_batched), already paid
 * (409 payout_already_paid). Each paid payout tells its publisher (`payout.paid`).
 */
export async function markPaid(
  db: Client,
  input: {
    payoutId?: string;
    batchId?: string;
    paidAt: Date;
    reference: string;
    actor: Actor;
    now: Date;
    baseUrl: string;
  },
): Promise<Payout[]> {
  const tx = await db.transaction("write");
  try {
    let targets: Payout[];
    if (input.payoutId) {
      const p = await payoutById(tx, input.payoutId);
      if (!p) throw notFound(`Payout "${input.payoutId}"`);
      if (p.state === "paid") {
        throw new AppError(
          409,
          "payout_already_paid",
          `Payout "${p.id}" was already marked paid (reference ${p.reference})`,
        );
      }
      if (!p.batchId) {
        throw new AppError(
          409,
          "payout_not_batched",
          `Payout "${p.id}" is in no approved batch: approve it first`,
        );
      }
      targets = [p];
    } else {
      const batch = await batchById(tx, input.batchId ?? "");
      if (!batch) throw notFound(`Payout batch "${input.batchId}"`);
      targets = (await findPayouts(tx, { batchId: batch.id, stage: "batched" }, {
        limit: 10_000,
        offset: 0,
      })).payouts;
      if (targets.length === 0) {
        throw new AppError(
          409,
          "payout_already_paid",
          `Every payout of batch "${batch.id}" was already marked paid`,
        );
      }
    }
    const paid: Payout[] = [];
    for (const p of targets) {
      const at = input.paidAt.getTime();
      if (!await markPayoutPaid(tx, p.id, { at, reference: input.reference })) {
        throw new AppError(409, "payout_already_paid", `Payout "${p.id}" was just marked paid`);
      }
      const after = (await payoutById(tx, p.id))!;
      paid.push(after);
      await audit(tx, {
        actor: input.actor,
        action: "payout.paid",
        subject: { kind: "payout", id: p.id },
        before: stageOf(p),
        after: stageOf(after),
        now: input.now,
      });
      await notify(tx, { kind: "publisher", id: p.publisherId }, "payout.paid", {
        payoutId: p.id,
        month: p.month,
        amountMicros: after.paidMicros,
        paidAt: input.paidAt.toISOString(),
        reference: input.reference,
        url: `${input.baseUrl}/publisher/payouts?month=${p.month}`,
      }, { now: input.now, dedupe: `payout.paid:${p.id}` });
    }
    await tx.commit();
    return paid;
  } finally {
    tx.close();
  }
}

/** Puts a payout not yet batched under review (`reason`) or releases it (null); audited. */
export async function reviewHold(
  db: Client,
  input: { payoutId: string; reason: string | null; actor: Actor; now: Date },
): Promise<Payout> {
  const tx = await db.transaction("write");
  try {
    const before = await payoutById(tx, input.payoutId);
    if (!before) throw notFound(`Payout "${input.payoutId}"`);
    if (!input.reason && !before.reviewHold) {
      throw new AppError(409, "not_under_review", `Payout "${before.id}" is not under review`);
    }
    if (!await setReviewHold(tx, before.id, input.reason)) {
      throw new AppError(
        409,
        before.state === "paid" ? "payout_already_paid" : "payout_already_batched",
        `Payout "${before.id}" is already ${
          before.state === "paid" ? "paid" : "in a batch"
        }: a hold can no longer stop it`,
      );
    }
    const after = (await payoutById(tx, before.id))!;
    await audit(tx, {
      actor: input.actor,
      action: input.reason ? "payout.review_hold" : "payout.review_released",
      subject: { kind: "payout", id: before.id },
      reason: input.reason,
      before: stageOf(before),
      after: stageOf(after),
      now: input.now,
    });
    await tx.commit();
    return after;
  } finally {
    tx.close();
  }
}

/** The audit's view of a payout's state. */
function stageOf(p: Payout) {
  return {
    state: p.state,
    batchId: p.batchId,
    paidMicros: p.paidMicros,
    paidAt: p.paidAt,
    reference: p.reference,
    reviewHold: p.reviewHold,
  };
}
