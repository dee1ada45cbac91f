// The British vs Pirates board: a tap (or Enter or Space) on one of your ships selects it and
// lists under the board, as buttons, what it may do now (its moves, its broadsides, its
// boardings, its cards); a tap on another ship then lists only the selected ship's actions
// against that one. A button picks the action in the turn's form and sends it. The form
// itself stays as it was, the whole list, for a page without this script. The selection is
// kept by the ship's id and shown again after each redraw. The wiring is boardpick.js's.
(function start() {
  var pick = window.quarterdeckBoardPick;
  if (!pick) { document.addEventListener("quarterdeck:boardpick", start, {once: true}); return; }
  if (window.quarterdeckBvpBoard) return;
  window.quarterdeckBvpBoard = true;
  var selected = null, against = null;

  function turnForm() { return pick.turnForm("turn"); }

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
    var mine = pick.choices(form).filter(function (c) { return c.value.indexOf(selected + ":") === 0; });
    if (against) mine = mine.filter(function (c) { return against_(c, selected, against); });
    pick.buttons(panel, mine.length
      ? "The " + nameOf(selected) + (against ? " against the " + nameOf(against) : "") + ": choose an action."
      : "The " + nameOf(selected) + " has nothing to do " + (against ? "against the " + nameOf(against) + " " : "") + "now.",
      mine, form, function (c) { return c.label.replace(/^[^:]*: /, ""); });
  }

  pick.onTap(".bvp-board [data-ship]", function (el) {
    var id = el.getAttribute("data-ship");
    var own = pick.choices(turnForm()).some(function (c) { return c.value.indexOf(id + ":") === 0; });
    if (own && id !== selected) { selected = id; against = null; }
    else if (selected && id !== selected) { against = id === against ? null : id; }
    else { selected = own ? id : selected; against = null; }
    if (!selected) selected = id;
    show();
  });
  document.addEventListener("htmx:afterSettle", show);
})();
