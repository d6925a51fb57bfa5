/**
 * Publication dates as pages write them, normalised to ISO 8601 UTC with milliseconds kept.
 * Rule for a time written without a zone: it takes the offset of another of the page's dates
 * written for the same minute (pickDate); failing that it is read as UTC, never as the server's
 * local time.
 */

const EARLIEST = Date.UTC(1800, 0, 1);
const LATEST = Date.UTC(2200, 0, 1);

/** A date as written: its wall-clock time (as if UTC), and its offset when the page gave one. */
export interface WrittenDate {
  wall: number;
  /** Minutes east of UTC, or null when the page wrote no zone. */
  offsetMin: number | null;
  hasTime: boolean;
}

const ISO = new RegExp(
  "^(\\d{4})-(\\d{2})-(\\d{2})(?:[T ](\\d{2}):(\\d{2})(?::(\\d{2})(?:[.,](\\d+))?)?)?" +
    "\\s*(Z|UTC|GMT|[+-]\\d{2}(?::?\\d{2})?)?$",
  "i",
);
const BASIC =
  /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})?(?:[.,](\d+))?(Z|[+-]\d{2}(?:\d{2})?)?$/i;
const CJK = /^(\d{4})年(\d{1,2})月(\d{1,2})日(?:\s*(\d{1,2})[時:](\d{1,2})分?)?/;
const DOTTED = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?:\s*Uhr)?)?$/;

/** Reads a date string found in a page, or null. */
export function parseWrittenDate(raw: string): WrittenDate | null {
  const s = raw.trim();
  if (!s || s.length > 64) return null;
  let m = ISO.exec(s) ?? BASIC.exec(s);
  if (m) return fromParts(m.slice(1, 8), zoneMinutes(m[8]));
  if ((m = CJK.exec(s))) return fromParts([m[1], m[2], m[3], m[4], m[5]], null);
  if ((m = DOTTED.exec(s))) return fromParts([m[3], m[2], m[1], m[4], m[5]], null);
  if (/^\d{4}-\d{2}$/.test(s)) return fromParts([s.slice(0, 4), s.slice(5, 7), "1"], null);
  if (/[a-z]{3}/i.test(s) && /\d{4}/.test(s)) {
    // RFC 2822 and "March 5, 2024"-style dates.
    const zoned = /\b(GMT|UTC|UT|Z|[+-]\d{4}|[ECMP][SD]T)\b/i.test(s);
    const ms = Date.parse(zoned ? s : `${s} UTC`);
    if (!Number.isFinite(ms)) return null;
    return check({ wall: ms, offsetMin: zoned ? 0 : null, hasTime: /\d:\d\d/.test(s) });
  }
  return null;
}

function fromParts(p: (string | undefined)[], offsetMin: number | null): WrittenDate | null {
  const [y, mo, d, h, mi, sec, frac] = Array.from({ length: 7 }, (_, i) => p[i] ?? "");
  const n = (x: string) => Number(x || 0);
  if (n(mo) < 1 || n(mo) > 12 || n(d) < 1 || n(d) > 31 || n(h) > 23 || n(mi) > 59 || n(sec) > 59) {
    return null;
  }
  const ms = Number((frac + "000").slice(0, 3));
  const at = new Date(0); // Date.UTC() would read years 0-99 as 1900-1999
  at.setUTCFullYear(n(y), n(mo) - 1, n(d));
  at.setUTCHours(n(h), n(mi), n(sec), ms);
  if (at.getUTCDate() !== n(d)) return null; // 31 February
  return check({ wall: at.getTime(), offsetMin, hasTime: h !== "" });
}

function check(d: WrittenDate): WrittenDate | null {
  const t = instant(d);
  return Number.isFinite(t) && t >= EARLIEST && t <= LATEST ? d : null;
}

function zoneMinutes(z: string | undefined): number | null {
  if (!z) return null;
  if (/^(z|utc|gmt)$/i.test(z)) return 0;
  const [, sign, hh, mm = "0"] = /^([+-])(\d{2}):?(\d{2})?$/.exec(z)!;
  return (sign === "-" ? -1 : 1) * (Number(hh) * 60 + Number(mm));
}

function instant(d: WrittenDate): number {
  return d.wall - (d.offsetMin ?? 0) * 60_000;
}

/** ISO 8601 UTC for a date string found in a page, or null; a missing zone means UTC. */
export function normaliseDate(raw: string): string | null {
  const d = parseWrittenDate(raw);
  return d ? new Date(instant(d)).toISOString() : null;
}

/**
 * The first readable date among `candidates` (in the caller's precedence), made as precise as the
 * page allows: a date without a time takes the time of another candidate written for the same day,
 * and a time without a zone the offset of another written for the same minute.
 */
export function pickDate(candidates: (string | null | undefined)[]): string | null {
  const all = candidates.map((c) => (c ? parseWrittenDate(c) : null))
    .filter((d): d is WrittenDate => d !== null);
  let best = all[0];
  if (!best) return null;
  const day = (d: WrittenDate) => Math.floor(d.wall / 86_400_000);
  if (!best.hasTime) best = all.find((d) => d.hasTime && day(d) === day(best)) ?? best;
  if (best.hasTime && best.offsetMin === null) {
    const minute = (d: WrittenDate) => Math.floor(d.wall / 60_000);
    const zoned = all.find((d) => d.offsetMin !== null && minute(d) === minute(best));
    if (zoned) best = { ...best, offsetMin: zoned.offsetMin };
  }
  return new Date(instant(best)).toISOString();
}
