/** Invoice numbers (migration 0044): one global sequence over closed buyer statements. */
import type { Executor } from "./db.ts";

/** A statement's invoice number and when it was issued. */
export interface InvoiceNumber {
  seq: number;
  issuedAt: number;
}

/** The number of `buyerId`'s invoice for `month`, given out now (at `issuedAt`) if it has none. */
export async function invoiceNumber(
  db: Executor,
  buyerId: string,
  month: string,
  issuedAt: Date,
): Promise<InvoiceNumber> {
  await db.execute({
    sql: `INSERT INTO invoice_numbers (buyer_id, month, issued_at) VALUES (?, ?, ?)
          ON CONFLICT (buyer_id, month) DO NOTHING`,
    args: [buyerId, month, issuedAt.getTime()],
  });
  const rs = await db.execute({
    sql: "SELECT seq, issued_at FROM invoice_numbers WHERE buyer_id = ? AND month = ?",
    args: [buyerId, month],
  });
  return { seq: Number(rs.rows[0].seq), issuedAt: Number(rs.rows[0].issued_at) };
}
