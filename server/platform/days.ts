/** The `days` query parameter of the status page, /api/status and the analytics API. */
import { invalid } from "./errors.ts";

/** The window when `days` is not given. */
export const DEFAULT_DAYS = 30;

/** `days`: a whole number from 1 to 90; absent means DEFAULT_DAYS. */
export function parseDays(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_DAYS;
  const days = /^\d{1,2}$/.test(raw) ? Number(raw) : NaN;
  if (!(days >= 1 && days <= 90)) {
    throw invalid("days", `must be a whole number from 1 to 90, got "${raw.slice(0, 20)}"`);
  }
  return days;
}
