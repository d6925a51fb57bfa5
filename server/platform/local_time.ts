/**
 * Times as pages write them (issue 42: "local dates"): "15 Dec 2026, 21:39" in the reader's time
 * zone, never an ISO string. The zone is the reader's browser's: the portals' script writes it into
 * the `folio_tz` cookie (ui/console/script.ts), the portal frame runs each request in it
 * (`inReaderZone`, server/pages/kit/frame.ts), and until a browser has said (no JavaScript, first
 * page) times are in UTC; the shell says which zone it used. Billing months stay UTC calendar
 * months (docs/SPEC.md), so a month is written as one ("December 2026"), never shifted.
 * Pure apart from the request's zone slot, so ui/ may import it (like money.ts and words.ts).
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** The cookie the portals' script writes with the browser's IANA time zone. */
export const ZONE_COOKIE = "folio_tz";

/** The zone when the reader's is not known. */
export const DEFAULT_ZONE = "UTC";

const MONTHS = [
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sep",
  "Oct",
  "Nov",
  "Dec",
] as const;

/** The months' names, January first (pages, citations, the site's dates). */
export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/** A request's zone, and whether its page has written a time or a month yet. */
interface ZoneSlot {
  zone: string;
  written: boolean;
}

const zoneSlot = new AsyncLocalStorage<ZoneSlot>();

/** Runs `fn` with `zone` as the current request's reader zone. */
export function inReaderZone<T>(zone: string, fn: () => Promise<T>): Promise<T> {
  return zoneSlot.run({ zone, written: false }, fn);
}

/** The zone the current request's pages write times in (asking counts as writing one). */
export function readerZone(): string {
  const slot = zoneSlot.getStore();
  if (!slot) return DEFAULT_ZONE;
  slot.written = true;
  return slot.zone;
}

/**
 * Whether the current request's page has written a time or a month so far: the shell names the
 * zone only on pages that show one. Pages render depth-first, so the note after the content knows.
 */
export function timesWritten(): boolean {
  return zoneSlot.getStore()?.written ?? false;
}

/** `raw` when it names an IANA time zone this runtime knows (short, plain characters), else null. */
export function knownZone(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(raw)) return null;
  try {
    return new Intl.DateTimeFormat("en", { timeZone: raw }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The reader's zone from a Cookie header (`folio_tz=Europe%2FParis`), or the default. */
export function zoneFromCookies(header: string | null | undefined): string {
  for (const part of (header ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name !== ZONE_COOKIE) continue;
    try {
      return knownZone(decodeURIComponent(value.join("="))) ?? DEFAULT_ZONE;
    } catch {
      return DEFAULT_ZONE;
    }
  }
  return DEFAULT_ZONE;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The calendar fields of `at` in `zone`. */
function fieldsIn(at: Date, zone: string) {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formats.set(zone, format);
  }
  const parts: Record<string, string> = {};
  for (const p of format.formatToParts(at)) parts[p.type] = p.value;
  return {
    year: parts.year,
    month: MONTHS[Number(parts.month) - 1],
    day: String(Number(parts.day)),
    time: `${parts.hour.padStart(2, "0")}:${parts.minute}`,
  };
}

function parse(iso: string): Date | null {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? null : at;
}

/**
 * A moment as a person reads it: "15 Dec 2026, 21:39" in `zone` (default: the request's). A
 * calendar date alone ("2026-12-15") is that day, in no zone; null, empty or unreadable is "—".
 */
export function timeInWords(iso: string | null | undefined, zone = readerZone()): string {
  if (!iso) return "—";
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) return dayInWords(iso);
  const at = parse(iso);
  if (!at) return "—";
  const f = fieldsIn(at, zone);
  return `${f.day} ${f.month} ${f.year}, ${f.time}`;
}

/** The day of a moment or a calendar date: "15 Dec 2026" (a moment's day in `zone`). */
export function dayInWords(iso: string | null | undefined, zone = readerZone()): string {
  if (!iso) return "—";
  const date = /^\d{4}-\d{2}-\d{2}$/.exec(iso);
  if (date) {
    const [y, m, d] = iso.split("-").map(Number);
    return `${d} ${MONTHS[m - 1]} ${y}`;
  }
  const at = parse(iso);
  if (!at) return "—";
  const f = fieldsIn(at, zone);
  return `${f.day} ${f.month} ${f.year}`;
}

/**
 * A billing date (a renewal, the end of a paid period, an invoice's due day) as its UTC calendar
 * day, "1 Dec 2026", in every zone: billing days bound UTC months (docs/SPEC.md), and "renews on
 * 30 Nov 2026, 19:00" would tell a reader in New York the wrong day of the month.
 */
export function billingDayInWords(iso: string | null | undefined): string {
  const slot = zoneSlot.getStore();
  if (slot) slot.written = true;
  return dayInWords(iso, DEFAULT_ZONE);
}

/** A billing month ("2026-12", a UTC calendar month) as "December 2026"; anything else as given. */
export function monthInWords(month: string): string {
  const slot = zoneSlot.getStore();
  if (slot) slot.written = true;
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) return month;
  return `${MONTH_NAMES[Number(m[2]) - 1]} ${m[1]}`;
}

/** How the shell names the zone its times are in: "UTC", or "Europe/Paris" as "Europe/Paris time". */
export function zoneInWords(zone = readerZone()): string {
  return zone === "UTC" || zone === "Etc/UTC" ? "UTC" : `${zone.replaceAll("_", " ")} time`;
}
