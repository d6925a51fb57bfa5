/**
 * Disputes and credit notes (issue 38 part 4; docs/decisions/billing.md "Disputes and credit
 * notes"). A buyer disputes items of one publisher within the window; the publisher, or the
 * operator once escalated, accepts in full or in part or refuses. An accepted dispute issues a
 * numbered credit note of negative ledger rows, one per credited item, in the same write
 * transaction as the decision: a crash leaves the dispute undecided with no note, or decided with
 * all of it, and a second decision finds it decided.
 */
import { getChargeItem } from "../../../store/charge_items.ts";
import type { Client, Executor } from "../../../store/db.ts";
import {
  type DisputeRow,
  type DisputeState,
  escalateDisputes,
  getDispute,
  insertCreditCharge,
  insertCreditNote,
  insertDispute,
  recordDecision,
  setItemCredit,
  unavailableItems,
} from "../../../store/disputes.ts";
import { newId, newTimeOrderedId } from "../../../store/ids.ts";
import { getClosedStatement, openStatementMonth } from "../../../store/statements.ts";
import { type Clock, monthOf } from "../../platform/clock.ts";
import type { Config } from "../../platform/config.ts";
import { AppError, invalid, notFound } from "../../platform/errors.ts";
import {
  allocateMicros,
  microsToWholeCents,
  subtractMicros,
  sumMicros,
} from "../../platform/money.ts";
import { notify } from "../webhooks/events.ts";
import { audit, SYSTEM } from "../audit/audit.ts";
import { grantCredit } from "./credits.ts";
import { creditNoteNumber } from "./items.ts";

const DAY_MS = 86_400_000;

/** What the dispute rules need. */
export interface DisputeDeps {
  db: Client;
  clock: Clock;
  config: Pick<Config, "baseUrl" | "disputes">;
}

/** Who decides: the item's publisher, or the operator. */
export type Decider = { kind: "publisher"; id: string } | { kind: "operator"; id: string };

/** A decision as the APIs take it (server/domain/billing/dispute_schemas.ts). */
export type Decision =
  | {
    decision: "accept";
    amountUsdMicros?: number;
    items?: { itemId: string; amountUsdMicros: number }[];
    reason?: string;
  }
  | { decision: "refuse"; reason: string };

/** The dispute as the APIs answer it. */
export function disputeWire(d: DisputeRow, config: Pick<Config, "baseUrl" | "disputes">) {
  const decider = d.decidedBy?.split(":")[0] ?? null;
  return {
    id: d.id,
    state: d.state,
    reason: d.reason,
    buyer: { id: d.buyerId, name: d.buyerName },
    publisher: { id: d.publisherId, name: d.publisherName },
    disputedUsdMicros: d.disputedMicros,
    creditedUsdMicros: d.creditedMicros,
    disputedUsdCents: microsToWholeCents(d.disputedMicros),
    creditedUsdCents: microsToWholeCents(d.creditedMicros),
    items: d.items.map((i) => ({
      itemId: i.chargeId,
      amountUsdMicros: i.amountMicros,
      creditedUsdMicros: i.creditedMicros,
    })),
    openedAt: new Date(d.createdAt).toISOString(),
    /** When an undecided dispute goes (or went) to the operator. */
    escalatesAt: new Date(d.createdAt + config.disputes.escalateDays * DAY_MS).toISOString(),
    escalatedAt: d.escalatedAt === null ? null : new Date(d.escalatedAt).toISOString(),
    decision: d.decidedAt === null ? null : {
      by: decider as "publisher" | "operator",
      reason: d.decisionReason,
      at: new Date(d.decidedAt).toISOString(),
    },
    creditNote: d.creditNote
      ? {
        number: creditNoteNumber(d.creditNote.seq),
        amountUsdMicros: d.creditNote.amountMicros,
        appliedTo: d.creditNote.appliedTo,
        statementMonth: d.creditNote.statementMonth,
        issuedAt: new Date(d.creditNote.issuedAt).toISOString(),
      }
      : null,
    url: buyerUrl(config, d.id),
  };
}

export type DisputeWire = ReturnType<typeof disputeWire>;

function buyerUrl(config: Pick<Config, "baseUrl">, id: string): string {
  return `${config.baseUrl}/buyer/disputes#${id}`;
}

function conflict(code: string, message: string, param?: string): AppError {
  return new AppError(409, code, message, {}, param);
}

/**
 * Opens a dispute of `itemIds` (the buyer's own, of one publisher, within the window, none
 * disputed before, none a credit note's) with `reason`. Refused whole, changing nothing.
 */
export async function openDispute(
  deps: DisputeDeps,
  buyerId: string,
  input: { itemIds: string[]; reason: string },
): Promise<DisputeWire> {
  const now = deps.clock.now();
  const reason = input.reason.trim();
  if (!reason) throw invalid("reason", "must say what is wrong with the charges");
  const ids = [...new Set(input.itemIds)];
  if (ids.length === 0) throw invalid("itemIds", "must name at least one item");
  const tx = await deps.db.transaction("write");
  try {
    const items = [];
    for (const id of ids) {
      const item = await getChargeItem(tx, buyerId, id);
      if (!item) throw notFound(`The item ${id}`);
      items.push(item);
    }
    const taken = await unavailableItems(tx, ids);
    const credit = items.find((i) => i.creditOf || taken.credits.includes(i.id));
    if (credit) {
      throw conflict(
        "credit_note_item",
        `itemIds: ${credit.id} is a credit note's item; dispute the item it credits instead`,
        "itemIds",
      );
    }
    if (taken.disputed.length > 0) {
      throw conflict(
        "already_disputed",
        `itemIds: ${taken.disputed[0]} is already disputed (an item is disputed once)`,
        "itemIds",
      );
    }
    const windowMs = deps.config.disputes.windowDays * DAY_MS;
    const late = items.find((i) => i.createdAt + windowMs < now.getTime());
    if (late) {
      throw conflict(
        "dispute_window_closed",
        `itemIds: ${late.id} was charged on ${
          new Date(late.createdAt).toISOString().slice(0, 10)
        }; charges can be disputed for ${deps.config.disputes.windowDays} days`,
        "itemIds",
      );
    }
    const free = items.find((i) => sumMicros([i.priceMicros, i.feeMicros]) <= 0);
    if (free) throw invalid("itemIds", `${free.id} billed nothing, so there is nothing to dispute`);
    const publishers = new Set(items.map((i) => i.publisherId));
    if (publishers.size > 1) {
      throw invalid(
        "itemIds",
        "must all be one publisher's items (open one dispute per publisher)",
      );
    }
    const id = newTimeOrderedId("dsp", now);
    const written = await insertDispute(tx, {
      id,
      buyerId,
      publisherId: items[0].publisherId,
      reason,
      items: items.map((i) => ({
        chargeId: i.id,
        amountMicros: sumMicros([i.priceMicros, i.feeMicros]),
      })),
      totalMicros: sumMicros(items.map((i) => sumMicros([i.priceMicros, i.feeMicros]))),
      now,
    });
    if (!written) {
      throw conflict("already_disputed", "itemIds: an item is already disputed", "itemIds");
    }
    const dispute = (await getDispute(tx, id))!;
    await notify(tx, { kind: "publisher", id: dispute.publisherId }, "dispute.opened", {
      disputeId: id,
      buyerName: dispute.buyerName,
      disputedMicros: dispute.disputedMicros,
      items: ids.length,
      reason,
      url: `${deps.config.baseUrl}/publisher/disputes#${id}`,
    }, { now });
    await tx.commit();
    return disputeWire(dispute, deps.config);
  } finally {
    tx.close();
  }
}

/** What a decision credits per item (in the dispute's item order), and the resulting state. */
function creditsOf(
  d: DisputeRow,
  decision: Decision,
): { credits: number[]; state: Exclude<DisputeState, "open" | "escalated"> } {
  if (decision.decision === "refuse") {
    if (!decision.reason.trim()) throw invalid("reason", "must say why the dispute is refused");
    return { credits: d.items.map(() => 0), state: "refused" };
  }
  let credits: number[];
  if (decision.items && decision.amountUsdMicros !== undefined) {
    throw invalid("amountUsdMicros", "give an amount or per-item amounts, not both");
  }
  if (decision.items) {
    const asked = new Map<string, number>();
    for (const i of decision.items) {
      const item = d.items.find((x) => x.chargeId === i.itemId);
      if (!item) throw invalid("items", `${i.itemId} is not an item of this dispute`);
      if (asked.has(i.itemId)) throw invalid("items", `${i.itemId} is named twice`);
      if (i.amountUsdMicros < 0 || i.amountUsdMicros > item.amountMicros) {
        throw invalid(
          "items",
          `${i.itemId}: the credit must be from 0 to ${item.amountMicros} micro-dollars (what it billed)`,
        );
      }
      asked.set(i.itemId, i.amountUsdMicros);
    }
    credits = d.items.map((i) => asked.get(i.chargeId) ?? 0);
  } else if (decision.amountUsdMicros !== undefined) {
    const a = decision.amountUsdMicros;
    if (a < 1 || a > d.disputedMicros) {
      throw invalid(
        "amountUsdMicros",
        `must be from 1 to ${d.disputedMicros} micro-dollars (the disputed total)`,
      );
    }
    credits = allocateMicros(a, d.items.map((i) => i.amountMicros));
  } else {
    credits = d.items.map((i) => i.amountMicros);
  }
  const total = sumMicros(credits);
  if (total === 0) throw invalid("items", "accepting credits something: refuse instead");
  return { credits, state: total === d.disputedMicros ? "accepted" : "partially_accepted" };
}

/** What the audit log compares of a dispute, before and after a change. */
function audited(d: DisputeWire) {
  return {
    state: d.state,
    disputedUsdMicros: d.disputedUsdMicros,
    creditedUsdMicros: d.creditedUsdMicros,
    creditNote: d.creditNote?.number ?? null,
    creditAppliedTo: d.creditNote?.appliedTo ?? null,
    publisherId: d.publisher.id,
    buyerId: d.buyer.id,
  };
}

/**
 * Decides a dispute. The publisher decides its own while open; the operator any undecided one. A
 * decided dispute is 409 `dispute_decided`, changing nothing. The decision is audited (money moves)
 * in its own transaction, with the dispute before and after.
 */
export async function decideDispute(
  deps: DisputeDeps,
  disputeId: string,
  decider: Decider,
  decision: Decision,
): Promise<DisputeWire> {
  const now = deps.clock.now();
  const tx = await deps.db.transaction("write");
  try {
    const d = await getDispute(tx, disputeId);
    if (!d || (decider.kind === "publisher" && d.publisherId !== decider.id)) {
      throw notFound("The dispute");
    }
    if (d.state !== "open" && d.state !== "escalated") {
      throw conflict("dispute_decided", `The dispute was already decided (${d.state})`);
    }
    if (decider.kind === "publisher" && d.state === "escalated") {
      throw conflict(
        "dispute_escalated",
        "The dispute went undecided past its deadline and is now the operator's to decide",
      );
    }
    const { credits, state } = creditsOf(d, decision);
    const credited = sumMicros(credits);
    const reason = decision.reason?.trim() || null;
    const decided = await recordDecision(tx, d.id, {
      state,
      creditedMicros: credited,
      reason,
      decidedBy: `${decider.kind}:${decider.id}`,
      now,
    });
    if (!decided) throw conflict("dispute_decided", "The dispute was already decided");
    if (credited > 0) await issueCreditNote(tx, d, credits, now);
    const after = (await getDispute(tx, d.id))!;
    const wire = disputeWire(after, deps.config);
    await notify(tx, { kind: "buyer", id: d.buyerId }, "dispute.decided", {
      disputeId: d.id,
      state,
      decision: decision.decision,
      creditedMicros: credited,
      reason,
      url: wire.url,
    }, { now });
    if (wire.creditNote) {
      await notify(tx, { kind: "buyer", id: d.buyerId }, "credit_note.issued", {
        creditNoteNumber: wire.creditNote.number,
        amountMicros: wire.creditNote.amountUsdMicros,
        url: wire.url,
      }, { now });
    }
    await audit(tx, {
      actor: decider,
      action: "dispute.decided",
      subject: { kind: "dispute", id: d.id },
      before: audited(disputeWire(d, deps.config)),
      after: audited(wire),
      reason: reason ?? undefined,
      now,
    });
    await tx.commit();
    return wire;
  } finally {
    tx.close();
  }
}

/**
 * The credit note: a number, and one negative ledger row per credited item, its price and fee
 * shares in the item's own proportion. On the items' still-open statements (none prepaid by card)
 * the rows are an adjustment there; otherwise the note is a credit balance for the next invoice
 * and the rows (kept off the buyer's statements) reduce the publisher's payout of the month open now.
 */
async function issueCreditNote(
  tx: Executor,
  d: DisputeRow,
  credits: number[],
  now: Date,
) {
  const originals = [];
  for (const item of d.items) {
    originals.push((await getChargeItem(tx, d.buyerId, item.chargeId))!);
  }
  let onStatement = true;
  for (const o of originals) {
    if (o.prepaid || await getClosedStatement(tx, d.buyerId, o.statementMonth)) onStatement = false;
  }
  const balanceMonth = await openStatementMonth(tx, d.buyerId, monthOf(now));
  const total = sumMicros(credits);
  const months = originals.map((o) => o.statementMonth).sort();
  const note = await insertCreditNote(tx, {
    id: newId("cn"),
    disputeId: d.id,
    buyerId: d.buyerId,
    publisherId: d.publisherId,
    amountMicros: total,
    appliedTo: onStatement ? "statement" : "balance",
    statementMonth: onStatement ? months[months.length - 1] : balanceMonth,
    now,
  });
  for (const [i, o] of originals.entries()) {
    const credit = credits[i];
    await setItemCredit(tx, d.id, o.id, credit);
    if (credit === 0) continue;
    // The platform gives back its fee share too: the buyer gets back what it paid, the publisher
    // loses only its price share (docs/decisions/billing.md "Disputes and credit notes").
    const [feeShare] = allocateMicros(credit, [o.feeMicros, o.priceMicros]);
    await insertCreditCharge(tx, {
      id: newTimeOrderedId("chg", now),
      creditOf: o.id,
      creditNoteId: note.id,
      via: onStatement ? "statement" : "balance",
      month: onStatement ? o.statementMonth : o.month,
      statementMonth: onStatement ? o.statementMonth : balanceMonth,
      priceMicros: subtractMicros(credit, feeShare),
      feeMicros: feeShare,
      now,
    });
  }
  if (!onStatement) {
    await grantCredit(tx, {
      buyerId: d.buyerId,
      amountMicros: total,
      source: "credit_note",
      sourceId: note.id,
      now,
    });
  }
}

/** Opens undecided disputes past their deadline to the operator; answers how many. */
export async function escalateDueDisputes(deps: DisputeDeps): Promise<number> {
  const now = deps.clock.now();
  const tx = await deps.db.transaction("write");
  try {
    const due = await escalateDisputes(tx, {
      before: now.getTime() - deps.config.disputes.escalateDays * DAY_MS,
      now,
    });
    for (const d of due) {
      await audit(tx, {
        actor: SYSTEM,
        action: "dispute.escalated",
        subject: { kind: "dispute", id: d.id },
        before: { state: "open" },
        after: { state: "escalated" },
        now,
      });
      await notify(tx, { kind: "publisher", id: d.publisherId }, "dispute.escalated", {
        disputeId: d.id,
        url: `${deps.config.baseUrl}/publisher/disputes#${d.id}`,
      }, { now });
    }
    await tx.commit();
    return due.length;
  } finally {
    tx.close();
  }
}
