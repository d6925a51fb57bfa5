/**
 * The portals' only script, served as /publisher/console.js and /buyer/console.js (CSP script-src
 * 'self'): it reveals copy buttons (ui/copy_script.ts), drives the branding preview and shows a
 * license's monthly fee and what subscribing bills now as use cases are ticked (looked up in the
 * amounts the page wrote: no price arithmetic in the browser), and tells the server the browser's
 * time zone (ui/console/local_time_script.ts). Pages work fully without it.
 */
import { COPY_JS } from "../copy_script.ts";
import { LOCAL_TIME_JS } from "./local_time_script.ts";

// One function scope around everything: a classic script's top-level `var` is a property of the
// window, and `var name` replaced window.name (a string), so the preview's listeners broke.
export const CONSOLE_JS = `(function () {
${COPY_JS}
${LOCAL_TIME_JS}
document.querySelectorAll("form[data-fee-totals]").forEach(function (form) {
  var out = form.querySelector("[data-fee-total]");
  var more = form.querySelector("[data-fee-more]");
  var totals = JSON.parse(form.getAttribute("data-fee-totals"));
  var nowOut = form.querySelector("[data-first-charge]");
  var nowTexts = JSON.parse(form.getAttribute("data-first-charges") || "{}");
  var then = form.querySelector("[data-fee-then]");
  if (!out) return;
  form.addEventListener("change", function () {
    var ticked = Array.prototype.map.call(
      form.querySelectorAll("input[name=useCases]:checked"),
      function (box) { return box.value; }
    );
    var total = totals[ticked.join(" ")];
    if (total !== undefined) out.textContent = total;
    if (nowOut && nowTexts[ticked.join(" ")] !== undefined) {
      nowOut.textContent = nowTexts[ticked.join(" ")];
    }
    if (then && total !== undefined) {
      then.textContent = ticked.length ? total : then.getAttribute("data-fee-then");
    }
    if (more) more.hidden = ticked.length > 0;
  });
});
var preview = document.getElementById("branding-preview");
if (preview) {
  var form = preview.closest("form") || document;
  var color = form.querySelector("[name='branding.primaryColor']");
  var font = form.querySelector("[name='branding.font']");
  var logo = form.querySelector("[name='branding.logoUrl']");
  var name = form.querySelector("[name='name']");
  var update = function () {
    var c = color && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(color.value) ? color.value : "#1d4ed8";
    preview.style.setProperty("--accent", c);
    preview.style.fontFamily = font && /^[A-Za-z0-9 ,'"-]*$/.test(font.value) && font.value ? font.value : "";
    var title = preview.querySelector("[data-preview=name]");
    if (title && name) title.textContent = name.value;
    var img = preview.querySelector("img");
    if (img && logo) {
      var ok = /^https:\\/\\//.test(logo.value);
      img.hidden = !ok;
      if (ok) img.src = logo.value;
    }
  };
  [color, font, logo, name].forEach(function (el) { if (el) el.addEventListener("input", update); });
}
})();
`;
