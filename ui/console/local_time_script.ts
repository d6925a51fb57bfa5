/**
 * The browser's part of local dates (server/platform/local_time.ts): it writes the browser's time
 * zone into the `folio_tz` cookie, so the server renders every later page in it, and when this page
 * was rendered in another zone (the first page, a new device) it rewrites the page's `<time
 * data-when>` elements and the zone note in place, with the server's words ("15 Dec 2026, 21:39").
 * Without JavaScript the page stays in the zone it names (UTC until a browser has said).
 */
export const LOCAL_TIME_JS = `var zone = "";
try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
var note = document.querySelector("[data-zone]");
if (/^[A-Za-z][A-Za-z0-9_+\\-\\/]*$/.test(zone) && zone.length <= 64) {
  var had = (document.cookie.match(/(?:^|; )folio_tz=([^;]*)/) || [])[1];
  if (had !== encodeURIComponent(zone)) {
    document.cookie = "folio_tz=" + encodeURIComponent(zone) + "; path=/; max-age=31536000; samesite=lax" +
      (location.protocol === "https:" ? "; secure" : "");
  }
  if (note && note.getAttribute("data-zone") !== zone) {
    var months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    var fmt = new Intl.DateTimeFormat("en-US", {
      timeZone: zone, year: "numeric", month: "numeric", day: "numeric",
      hour: "2-digit", minute: "2-digit", hourCycle: "h23"
    });
    document.querySelectorAll("time[data-when]").forEach(function (el) {
      var at = new Date(el.getAttribute("datetime"));
      if (isNaN(at.getTime()) || /^\\d{4}-\\d{2}-\\d{2}$/.test(el.getAttribute("datetime"))) return;
      var p = {};
      fmt.formatToParts(at).forEach(function (part) { p[part.type] = part.value; });
      var day = Number(p.day) + " " + months[Number(p.month) - 1] + " " + p.year;
      el.textContent = el.getAttribute("data-when") === "day"
        ? day : day + ", " + p.hour.padStart(2, "0") + ":" + p.minute;
    });
    note.setAttribute("data-zone", zone);
    var name = note.querySelector("[data-zone-name]");
    if (name) name.textContent = zone === "UTC" || zone === "Etc/UTC" ? "UTC" : zone.replace(/_/g, " ") + " time";
  }
}`;
