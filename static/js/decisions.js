// The GM's "Decide for a player" section (combat/_decisions.html) stays as he left it, open
// or closed, when a push redraws the decisions, so that it neither springs open by itself
// nor shuts while he is making a player's decision. Remembered per page for the session.
(function () {
  if (window.quarterdeckDecisions) return;
  window.quarterdeckDecisions = true;
  var key = "quarterdeck.decideForPlayer:" + window.location.pathname;

  function restore() {
    var open = false;
    try { open = sessionStorage.getItem(key) === "1"; } catch (e) { /* private mode */ }
    document.querySelectorAll("details.decide-for-player").forEach(function (d) { d.open = open; });
  }

  document.addEventListener("toggle", function (event) {
    var d = event.target;
    if (!d.classList || !d.classList.contains("decide-for-player")) return;
    try { sessionStorage.setItem(key, d.open ? "1" : "0"); } catch (e) { /* private mode */ }
  }, true);
  document.addEventListener("htmx:afterSettle", restore);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restore);
  else restore();
})();
