/**
 * Many rows into one table in a few statements: `INSERT … VALUES (…), (…), …` in chunks of 32, 8
 * and 1 rows. Each statement costs about 10 µs however small (docs/decisions/storage.md, "The embedded client"), and
 * the call log writes hundreds of rows per batch; fixed chunk sizes keep the prepared statements
 * this needs to three per table.
 */
import type { InValue } from "@libsql/client";

const CHUNKS = [32, 8, 1];

/** Statements inserting `rows` (each `columns.length` values) into `table`, in order. */
export function multiRowInserts(
  table: string,
  columns: readonly string[],
  rows: readonly InValue[][],
): { sql: string; args: InValue[] }[] {
  const one = `(${columns.map(() => "?").join(", ")})`;
  const head = `INSERT INTO ${table} (${columns.join(", ")}) VALUES `;
  const out: { sql: string; args: InValue[] }[] = [];
  let at = 0;
  for (const size of CHUNKS) {
    for (; rows.length - at >= size; at += size) {
      out.push({
        sql: head + Array.from({ length: size }, () => one).join(", "),
        args: rows.slice(at, at + size).flat(),
      });
    }
  }
  return out;
}
