/** Billing months: calendar months in UTC written "YYYY-MM" (docs/DESIGN.md section 4 "Time"). */
import { monthOf } from "../../platform/clock.ts";

export { nextMonth } from "../../../store/statements.ts";

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** True when `s` is a "YYYY-MM" month. */
export function isMonth(s: string): boolean {
  return MONTH.test(s);
}

/** The first instant of the month, UTC. */
export function monthStart(month: string): Date {
  const m = MONTH.exec(month);
  if (!m) throw new RangeError(`Bad month "${month}"`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
}

/** The month before `month`. */
export function previousMonth(month: string): string {
  return monthOf(new Date(monthStart(month).getTime() - 1));
}
