/** Publication dates as pages write them, normalised to ISO 8601 UTC. */

const EARLIEST = Date.UTC(1800, 0, 1);
const LATEST = Date.UTC(2200, 0, 1);

/**
 * ISO 8601 UTC for a date string found in a page (ISO 8601 with or without zone, date only,
 * RFC 2822), or null. A time without a zone is read as UTC, never as the server's local time.
 */
export function normaliseDate(raw: string): string | null {
  const s = raw.trim();
  if (!s || s.length > 64) return null;
  let ms: number;
  const iso =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i
      .exec(s);
  if (iso) {
    const [, y, mo, d, h = "00", mi = "00", sec = "00", frac = "", zone] = iso;
    const z = !zone
      ? "Z"
      : /^[+-]\d{4}$/.test(zone)
      ? `${zone.slice(0, 3)}:${zone.slice(3)}`
      : zone;
    ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${sec}${frac.slice(0, 4)}${z.toUpperCase()}`);
  } else if (/^\d{4}-\d{2}$/.test(s)) {
    ms = Date.parse(`${s}-01T00:00:00Z`);
  } else if (/[a-z]{3}/i.test(s) && /\d{4}/.test(s)) {
    // RFC 2822 and "March 5, 2024"-style dates; an absent zone means UTC.
    const zoned = /\b(GMT|UTC|UT|Z|[+-]\d{4}|[ECMP][SD]T)\b/i.test(s) ? s : `${s} UTC`;
    ms = Date.parse(zoned);
  } else {
    return null;
  }
  if (!Number.isFinite(ms) || ms < EARLIEST || ms > LATEST) return null;
  return new Date(ms).toISOString();
}
