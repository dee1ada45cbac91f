// What the wargame boards' scripts (bvp.js, hfg.js, brethren.js) share: a tap, Enter or
// Space on a piece of a board (found by a selector) calls a handler with the piece; the
// viewer's own turn form and its choices (the whole list, select options or radios); picking
// a choice in that form and sending it. The boards are redrawn on every push, so the
// listeners sit on the document, once per board. The form stays as the server drew it, for a
// page without scripts. Loaded before the boards' own scripts; they wait for it
// (window.quarterdeckBoardPick, the "quarterdeck:boardpick" event) when it comes later.
(function () {
  if (window.quarterdeckBoardPick) return;

  function turnForm(kind) {
    return document.querySelector('#decisions > form.decision' + (kind ? '[data-kind="' + kind + '"]' : ""));
  }

  function choices(form) {
    var out = [];
    if (!form) return out;
    form.querySelectorAll("select[name=choice] option, input[type=radio][name=choice]").forEach(function (el) {
      out.push({value: el.value, label: (el.tagName === "OPTION" ? el.textContent : el.parentNode.textContent).trim(), el: el});
    });
    return out;
  }

  function send(form, choice) {
    if (choice.el.tagName === "OPTION") choice.el.selected = true; else choice.el.checked = true;
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  }

  // Buttons in ``panel`` (emptied first) under the line ``heading``: one per choice, its
  // text ``words(choice)``, sending it in ``form``.
  function buttons(panel, heading, list, form, words) {
    panel.innerHTML = "";
    var head = document.createElement("p");
    head.textContent = heading;
    panel.appendChild(head);
    list.forEach(function (c) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "secondary";
      button.textContent = words(c);
      button.addEventListener("click", function () { send(form, c); });
      panel.appendChild(button);
    });
  }

  function onTap(selector, handler) {
    function pieceOf(target) {
      return target.closest ? target.closest(selector) : null;
    }
    document.addEventListener("click", function (event) {
      var el = pieceOf(event.target);
      if (el) handler(el, event);
    });
    document.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" && event.key !== " ") return;
      var el = pieceOf(event.target);
      if (el && handler(el, event) !== false) event.preventDefault();
    });
  }

  window.quarterdeckBoardPick = {turnForm: turnForm, choices: choices, send: send, buttons: buttons, onTap: onTap};
  document.dispatchEvent(new Event("quarterdeck:boardpick"));
})();
