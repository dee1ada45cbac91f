/* One request per submit: while a form is being sent, its submit buttons are disabled, so a
 * double tap on a phone (or a double click) sends it once. The server makes a create form's
 * record once anyway (campaigns/once.py); this spares the second request.
 *
 * Only forms that post: a search or a filter (GET) is left alone, as is a form sent by script
 * (htmx, or a handler that cancels the submit), a form with data-resubmit and one that opens
 * elsewhere (target). The buttons are disabled after the browser has read the form, so the
 * pressed button's name and value still go; they are enabled again when the page is shown
 * again from the browser's history, or after RETRY_MS if no page came (the network failed).
 */
(function () {
  "use strict";
  var RETRY_MS = 20000;
  var BUTTONS = 'button:not([type]), button[type="submit"], input[type="submit"], input[type="image"]';

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !(form instanceof HTMLFormElement)) return;
    if ((form.getAttribute("method") || "get").toLowerCase() !== "post") return;
    if (form.hasAttribute("data-resubmit") || form.getAttribute("target")) return;
    if (form.hasAttribute("data-sending")) {
      event.preventDefault();
      return;
    }
    form.setAttribute("data-sending", "");
    window.setTimeout(function () {
      form.querySelectorAll(BUTTONS).forEach(function (button) {
        button.disabled = true;
        button.setAttribute("aria-busy", "true");
      });
    }, 0);
    window.setTimeout(function () { release(form); }, RETRY_MS);
  });

  function release(form) {
    form.removeAttribute("data-sending");
    form.querySelectorAll(BUTTONS).forEach(function (button) {
      button.disabled = false;
      button.removeAttribute("aria-busy");
    });
  }

  window.addEventListener("pageshow", function () {
    document.querySelectorAll("form[data-sending]").forEach(release);
  });
})();
