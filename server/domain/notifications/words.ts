/**
 * How an email states what an event's data holds (docs/decisions/email.md): amounts in dollars and
 * cents, dates and months in words, and nothing at all for a field that is missing, so a template
 * reads sensibly whatever an event left out.
 */
import { formatUsd, microsToWholeCents } from "../../platform/money.ts";

const DATE = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });
const MONTH = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

/** A non-empty string field, or null. */
export function text(data: Record<string, unknown>, key: string): string | null {
  const v = data[key];
  if (typeof v === "string" && v.trim() !== "") return v.trim();
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return null;
}

/** A micro-dollar field as "$12.34", or null. */
export function dollars(data: Record<string, unknown>, key: string): string | null {
  const v = data[key];
  if (typeof v !== "number" || !Number.isSafeInteger(v)) return null;
  return formatUsd(Math.sign(v) * microsToWholeCents(Math.abs(v)));
}

/** A field in US cents (the existing events' `...UsdCents`) as "$12.34", or null. */
export function centsDollars(data: Record<string, unknown>, key: string): string | null {
  const v = data[key];
  return typeof v === "number" && Number.isFinite(v) ? formatUsd(v) : null;
}

/** A decimal USD string field (`monthlyPriceUsd: "12.5"`) as "$12.50", or null. */
export function decimalDollars(data: Record<string, unknown>, key: string): string | null {
  const v = text(data, key);
  if (v === null || !/^\d+(\.\d+)?$/.test(v)) return null;
  return formatUsd(Math.round(Number(v) * 100));
}

/** An ISO date field in words ("December 31, 2026"), or null. */
export function dateWords(data: Record<string, unknown>, key: string): string | null {
  const v = text(data, key);
  const at = v === null ? NaN : Date.parse(v);
  return Number.isNaN(at) ? null : DATE.format(at);
}

/** A "YYYY-MM" field in words ("November 2026"), or null. */
export function monthWords(data: Record<string, unknown>, key: string): string | null {
  const v = text(data, key);
  if (v === null || !/^\d{4}-(0[1-9]|1[0-2])$/.test(v)) return null;
  return MONTH.format(Date.parse(`${v}-01T00:00:00Z`));
}

/** An API word ("accepted_in_part") as a person writes it ("accepted in part"). */
export function plainWord(data: Record<string, unknown>, key: string): string | null {
  const v = text(data, key);
  return v === null ? null : v.replaceAll("_", " ");
}

/** Parts joined into one sentence, leaving out those that are null ("at $5." or just "."). */
export function sentence(...parts: (string | null | false | undefined)[]): string {
  return parts.filter((p): p is string => typeof p === "string" && p !== "").join(" ")
    .replace(/ ([.,])/g, "$1");
}
