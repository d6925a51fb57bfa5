/**
 * Copy buttons, for pages that allow their own scripts (CSP script-src 'self'): each `.copy` box
 * holds an element with `data-copy` (the text) and a hidden `.copy-button`, which this reveals
 * where the clipboard is available. Without the script the text is still there to select.
 */
export const COPY_JS = `"use strict";
document.querySelectorAll(".copy").forEach(function (box) {
  var code = box.querySelector("[data-copy]");
  var button = box.querySelector(".copy-button");
  if (!code || !button || !navigator.clipboard) return;
  button.hidden = false;
  button.setAttribute("aria-label", "Copy " + button.getAttribute("data-copy-label"));
  button.addEventListener("click", function () {
    navigator.clipboard.writeText(code.getAttribute("data-copy")).then(function () {
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = "Copy"; }, 1500);
    });
  });
});
`;
