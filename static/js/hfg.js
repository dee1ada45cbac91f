// The Horse, Foot and Guns board: a tap (or Enter or Space) on one of your elements selects
// it and lists under the board, as buttons, its orders now (keys "<verb>:<element>...": its
// moves, marches, attacks, ...); a tap on an enemy element then lists only the selected
// element's orders against that one ("<verb>:<element>:<enemy>..."). A button picks the
// order in the bound's form and sends it; the form stays as it was, for a page without this
// script. The zoom buttons widen the board in its scrolling frame (for a phone). The
// selection and the zoom are kept and shown again after each redraw. The wiring is
// boardpick.js's.
(function start() {
  var pick = window.quarterdeckBoardPick;
  if (!pick) { document.addEventListener("quarterdeck:boardpick", start, {once: true}); return; }
  if (window.quarterdeckHfgBoard) return;
  window.quarterdeckHfgBoard = true;
  var selected = null, against = null, zoom = "1";

  function turnForm() { return pick.turnForm("hfg.orders"); }

  function part(choice, i) { return choice.value.split(":")[i]; }

  function nameOf(id) {
    var el = document.querySelector('.hfg-board [data-element="' + id + '"]');
    return el ? el.getAttribute("data-name") : id;
  }

  // An order's words without its element's name in front ("Bayonets (cb1) advances (1 PIP)"
  // -> "Advances (1 PIP)").
  function words(choice, id) {
    var el = document.querySelector('.hfg-board [data-element="' + id + '"]');
    var name = el ? el.getAttribute("data-order-name") + " " : null;
    var text = name && choice.label.indexOf(name) === 0 ? choice.label.slice(name.length) : choice.label;
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function show() {
    var figure = document.querySelector(".hfg-board");
    if (figure) {
      figure.setAttribute("data-zoom", zoom);
      var bar = figure.querySelector(".hfg-zoom");
      if (bar) bar.hidden = false;
      figure.querySelectorAll(".hfg-zoom [data-zoom]").forEach(function (b) {
        b.setAttribute("aria-pressed", b.getAttribute("data-zoom") === zoom ? "true" : "false");
      });
    }
    document.querySelectorAll(".hfg-board [data-element]").forEach(function (el) {
      var id = el.getAttribute("data-element");
      el.classList.toggle("selected", id === selected);
      el.classList.toggle("against", id === against);
    });
    var panel = document.getElementById("hfg-picks");
    if (!panel || !selected) return;
    var form = turnForm();
    var mine = pick.choices(form).filter(function (c) { return part(c, 1) === selected; });
    if (against) mine = mine.filter(function (c) { return part(c, 2) === against; });
    pick.buttons(panel, mine.length
      ? nameOf(selected) + (against ? " against " + nameOf(against) : "") + ": choose an order."
      : nameOf(selected) + " has no order open " + (against ? "against " + nameOf(against) + " " : "") + "now.",
      mine, form, function (c) { return words(c, selected); });
  }

  pick.onTap(".hfg-board [data-element]", function (el) {
    var id = el.getAttribute("data-element");
    var own = pick.choices(turnForm()).some(function (c) { return part(c, 1) === id; });
    if (own && id !== selected) { selected = id; against = null; }
    else if (selected && id !== selected) { against = id === against ? null : id; }
    else { selected = id; against = null; }
    show();
  });
  pick.onTap(".hfg-zoom [data-zoom]", function (el) {
    zoom = el.getAttribute("data-zoom");
    show();
  });
  document.addEventListener("htmx:afterSettle", show);
  show();
})();
