/**
 * CSV exports: RFC 4180 (every cell quoted, CRLF) with csv-stringify, and cells a spreadsheet would
 * run as a formula (starting with =, +, -, @, tab or CR) prefixed with a quote (OWASP "CSV
 * Injection"; docs/TEST-PLAN.md 4.23). Numbers are not strings to it, so a negative amount (a credit
 * note's item) is written as it is.
 */
import { stringify } from "csv-stringify/sync";

/** `rows` as one CSV document. */
export function toCsv(rows: readonly (readonly (string | number)[])[]): string {
  return stringify(rows as (string | number)[][], {
    quoted: true,
    record_delimiter: "windows",
    escape_formulas: true,
  });
}
