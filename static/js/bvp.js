// The British vs Pirates board: a tap (or Enter or Space) on one of your ships selects it and
// lists under the board, as buttons, what it may do now (its moves, its broadsides, its
// boardings, its cards); a tap on another ship then lists only the selected ship's actions
// against that one. A button picks the action in the turn's form and sends it. The form
// itself stays as it was, the whole list, for a page without this script. The board is
// redrawn on every push, so the listeners sit on the document, once, and the selection is
// kept by the ship's id and shown again after each redraw.
(function () {
  if (window.quarterdeckBvpBoard) return;
  window.quarterdeckBvpBoard = true;
  var selected = null, against = null;

  function turnForm() {
    return document.querySelector('#decisions > form.decision[data-kind="turn"]');
  }

  function choices(form) {
    var out = [];
    form.querySelectorAll("select[name=choice] option, input[type=radio][name=choice]").forEach(function (el) {
      out.push({value: el.value, label: (el.tagName === "OPTION" ? el.textContent : el.parentNode.textContent).trim(), el: el});
    });
    return out;
  }

  function against_(choice, ship, target) {
    var v = choice.value;
    return v === ship + ":board:" + target || (v.indexOf(ship + ":fire:") === 0 &&
      ("+" + v.slice((ship + ":fire:").length)).indexOf("+" + target + ":") >= 0);
  }

  function nameOf(id) {
    var el = document.querySelector('.bvp-board [data-ship="' + id + '"]');
    return el ? el.getAttribute("data-name") : id;
  }

  function show() {
    var panel = document.getElementById("bvp-picks");
    document.querySelectorAll(".bvp-board [data-ship]").forEach(function (el) {
      var id = el.getAttribute("data-ship");
      el.classList.toggle("selected", id === selected);
      el.classList.toggle("against", id === against);
    });
    if (!panel || !selected) return;
    var form = turnForm();
    var mine = form ? choices(form).filter(function (c) { return c.value.indexOf(selected + ":") === 0; }) : [];
    if (against) mine = mine.filter(function (c) { return against_(c, selected, against); });
    panel.innerHTML = "";
    var head = document.createElement("p");
    head.textContent = mine.length
      ? "The " + nameOf(selected) + (against ? " against the " + nameOf(against) : "") + ": choose an action."
      : "The " + nameOf(selected) + " has nothing to do " + (against ? "against the " + nameOf(against) + " " : "") + "now.";
    panel.appendChild(head);
    mine.forEach(function (c) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "secondary";
      button.textContent = c.label.replace(/^[^:]*: /, "");
      button.addEventListener("click", function () {
        if (c.el.tagName === "OPTION") c.el.selected = true; else c.el.checked = true;
        if (form.requestSubmit) form.requestSubmit(); else form.submit();
      });
      panel.appendChild(button);
    });
  }

  function tapped(el) {
    var id = el.getAttribute("data-ship");
    var form = turnForm();
    var own = form && choices(form).some(function (c) { return c.value.indexOf(id + ":") === 0; });
    if (own && id !== selected) { selected = id; against = null; }
    else if (selected && id !== selected) { against = id === against ? null : id; }
    else { selected = own ? id : selected; against = null; }
    if (!selected) selected = id;
    show();
  }

  function shipOf(target) {
    return target.closest ? target.closest(".bvp-board [data-ship]") : null;
  }

  document.addEventListener("click", function (event) {
    var el = shipOf(event.target);
    if (el) tapped(el);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    var el = shipOf(event.target);
    if (el) { event.preventDefault(); tapped(el); }
  });
  document.addEventListener("htmx:afterSettle", show);
})();
