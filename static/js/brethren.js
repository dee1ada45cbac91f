// The Brethren of the Coast board: a tap on an island or a ship sets the move of the
// orders being written (the viewer's own first decision form on the page, not one he may
// make for a player) to "steer for it", keeping the order's other action. The wiring is
// boardpick.js's.
(function start() {
  var pick = window.quarterdeckBoardPick;
  if (!pick) { document.addEventListener("quarterdeck:boardpick", start, {once: true}); return; }
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

  pick.onTap(".brethren-board .mark", function (el) {
    return steerFor(el.getAttribute("data-mark"));
  });
})();
