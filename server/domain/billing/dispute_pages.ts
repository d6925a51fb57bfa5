/**
 * Pages of disputes (a buyer's, a publisher's, the operator's every one) and a credit note with its
 * items and their receipts: what the marketplace, management and operator routes answer.
 */
import { listChargeItems } from "../../../store/charge_items.ts";
import type { Client } from "../../../store/db.ts";
import {
  countDisputes,
  creditNoteBySeq,
  type DisputeFilter,
  listDisputes,
} from "../../../store/disputes.ts";
import { invalid, notFound } from "../../platform/errors.ts";
import type { DisputeDeps } from "./disputes.ts";
import { disputeWire } from "./disputes.ts";
import { disputeQuerySchema, operatorDisputeQuerySchema } from "./dispute_schemas.ts";
import { creditNoteNumber, itemWire } from "./items.ts";
import type { Receipts } from "./receipts.ts";

/**
 * One page of the disputes `base` (whose they are: a buyer's, a publisher's, or, empty, every one
 * for the operator, who may narrow by publisher and buyer too) and the query narrow to.
 */
export async function disputesPage(
  deps: DisputeDeps,
  base: Pick<DisputeFilter, "buyerId" | "publisherId">,
  query: Record<string, string>,
) {
  const everyone = !base.buyerId && !base.publisherId;
  const r = (everyone ? operatorDisputeQuerySchema : disputeQuerySchema).safeParse(query);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue.path.length ? String(issue.path[0]) : "query";
    throw invalid(field, issue.code === "unrecognized_keys" ? "is not a filter" : issue.message);
  }
  const limit = r.data.limit ?? 50;
  const narrow = r.data as { publisherId?: string; buyerId?: string };
  const filter: DisputeFilter = {
    ...(everyone ? { publisherId: narrow.publisherId, buyerId: narrow.buyerId } : base),
    state: r.data.state,
    after: r.data.cursor === undefined ? undefined : decodeCursor(r.data.cursor),
  };
  const [rows, matching] = await Promise.all([
    listDisputes(deps.db, filter, { limit: limit + 1 }),
    countDisputes(deps.db, filter),
  ]);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    disputes: page.map((d) => disputeWire(d, deps.config)),
    nextCursor: rows.length > limit ? btoa(`${last.createdAt}.${last.id}`) : null,
    matching,
  };
}

function decodeCursor(cursor: string): { createdAt: number; id: string } {
  try {
    const m = /^(\d{1,15})\.(dsp_[0-9A-Za-z_]{1,60})$/.exec(atob(cursor));
    if (m) return { createdAt: Number(m[1]), id: m[2] };
  } catch {
    // not base64: the same answer as any other bad cursor
  }
  throw invalid("cursor", "is not a cursor this API gave out (use nextCursor as it came)");
}

/** The buyer's credit note by number (FOLIO-CN-000001), its items and their signed receipts. */
export async function creditNoteDetail(
  db: Client,
  receipts: Receipts,
  buyerId: string,
  number: string,
) {
  const m = /^FOLIO-CN-(\d{6,})$/.exec(number);
  const note = m ? await creditNoteBySeq(db, Number(m[1])) : null;
  if (!note || note.buyerId !== buyerId) throw notFound("The credit note");
  const rows = (await listChargeItems(db, { buyerId, creditNoteId: note.id }, { limit: 200 }))
    .reverse();
  return {
    creditNote: {
      number: creditNoteNumber(note.seq),
      disputeId: note.disputeId,
      amountUsdMicros: note.amountMicros,
      appliedTo: note.appliedTo,
      statementMonth: note.statementMonth,
      issuedAt: new Date(note.issuedAt).toISOString(),
    },
    items: await Promise.all(rows.map(async (r) => {
      const item = itemWire(r);
      return { item, receipt: await receipts.sign(buyerId, item) };
    })),
  };
}
