import assert from "node:assert/strict";
import {
  dayInWords,
  inReaderZone,
  knownZone,
  monthInWords,
  readerZone,
  timeInWords,
  timesWritten,
  zoneFromCookies,
  zoneInWords,
} from "./local_time.ts";

Deno.test("timeInWords: a moment in words in the zone asked, never an ISO string", () => {
  const iso = "2026-12-15T21:39:54.152Z";
  assert.equal(timeInWords(iso, "UTC"), "15 Dec 2026, 21:39");
  assert.equal(timeInWords(iso, "Europe/Paris"), "15 Dec 2026, 22:39");
  assert.equal(timeInWords(iso, "Asia/Tokyo"), "16 Dec 2026, 06:39", "the next day there");
  assert.equal(timeInWords(iso, "America/New_York"), "15 Dec 2026, 16:39");
  // Summer time: Paris is UTC+2 in July; midnight is 00:00, never 24:00.
  assert.equal(timeInWords("2026-07-01T22:00:00Z", "Europe/Paris"), "2 Jul 2026, 00:00");
  assert.equal(timeInWords("2026-09-03T08:05:00Z", "UTC"), "3 Sep 2026, 08:05");
  // A calendar day alone is that day everywhere.
  assert.equal(timeInWords("2026-12-01", "America/New_York"), "1 Dec 2026");
  assert.equal(timeInWords(null), "—");
  assert.equal(timeInWords(""), "—");
  assert.equal(timeInWords("not a time"), "—");
});

Deno.test("dayInWords and monthInWords: days shift with the zone, billing months never do", () => {
  assert.equal(dayInWords("2026-12-01T00:00:00Z", "UTC"), "1 Dec 2026");
  assert.equal(dayInWords("2026-12-01T00:00:00Z", "America/New_York"), "30 Nov 2026");
  assert.equal(dayInWords("2026-11-15", "Asia/Tokyo"), "15 Nov 2026");
  assert.equal(monthInWords("2026-12"), "December 2026");
  assert.equal(monthInWords("2026-01"), "January 2026");
  assert.equal(monthInWords("2026-13"), "2026-13", "not a month: as given");
});

Deno.test("the reader's zone: from the cookie when the runtime knows it, else UTC", async () => {
  assert.equal(zoneFromCookies("a=b; folio_tz=Europe%2FParis; c=d"), "Europe/Paris");
  assert.equal(zoneFromCookies("folio_tz=America/New_York"), "America/New_York");
  assert.equal(zoneFromCookies("folio_tz=Mars%2FOlympus"), "UTC", "an unknown zone");
  assert.equal(zoneFromCookies("folio_tz=%3Cscript%3E"), "UTC", "not a zone's characters");
  assert.equal(zoneFromCookies("folio_tz=%E0%A4%A"), "UTC", "bad percent-encoding");
  assert.equal(zoneFromCookies(null), "UTC");
  assert.equal(knownZone("x".repeat(65)), null);
  assert.equal(readerZone(), "UTC", "outside a request");
  const seen = await inReaderZone("Asia/Tokyo", async () => {
    await Promise.resolve();
    return [readerZone(), timeInWords("2026-12-15T21:39:00Z")];
  });
  assert.deepEqual(seen, ["Asia/Tokyo", "16 Dec 2026, 06:39"]);
  assert.equal(zoneInWords("UTC"), "UTC");
  assert.equal(zoneInWords("America/New_York"), "America/New York time");
});

Deno.test("a page that writes no time or month has no zone to name", async () => {
  const [before, after] = await inReaderZone("Europe/Paris", () => {
    const before = timesWritten();
    monthInWords("2026-12");
    return Promise.resolve([before, timesWritten()]);
  });
  assert.deepEqual([before, after], [false, true]);
  assert.equal(await inReaderZone("UTC", () => Promise.resolve(timesWritten())), false);
});
