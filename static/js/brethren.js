// The Brethren of the Coast board: a tap on an island or a ship sets the move of the
// orders being written (the viewer's own first decision form on the page, not one he may
// make for a player) to "steer for it", keeping
// the order's other action. The board is redrawn on every push, so the listener sits on
// the document, once.
(function () {
  if (window.quarterdeckBrethrenBoard) return;
  window.quarterdeckBrethrenBoard = true;

  function steerFor(mark) {
    var select = document.querySelector("#decisions > form.decision select[name=choice]");
    if (!select) return false;
    var move = "move:to:" + mark;
    var parts = select.value.split("+");
    var others = parts.filter(function (p) { return p.indexOf("move:") !== 0 && p !== "about" && p !== "hold"; });
    var wanted = [];
    others.forEach(function (o) { wanted.push(move + "+" + o, o + "+" + move); });
    wanted.push(move);
    for (var i = 0; i < wanted.length; i++) {
      var option = select.querySelector('option[value="' + wanted[i] + '"]');
      if (option) {
        select.value = wanted[i];
        select.dispatchEvent(new Event("change", { bubbles: true }));
        select.classList.add("board-picked");
        return true;
      }
    }
    return false;
  }

  function markOf(target) {
    var el = target.closest && target.closest(".brethren-board .mark");
    return el ? el.getAttribute("data-mark") : null;
  }

  document.addEventListener("click", function (event) {
    var mark = markOf(event.target);
    if (mark) steerFor(mark);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    var mark = markOf(event.target);
    if (mark && steerFor(mark)) event.preventDefault();
  });
})();
