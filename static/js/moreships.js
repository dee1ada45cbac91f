// The New battle form's "More ships" checkboxes (each input carries data-main-ship, the name
// of its side's main-ship select): the ship chosen in that select is her side's main ship,
// so her checkbox is unticked, disabled and hidden, and the others shown, whenever the choice
// changes. Without this script every ship is offered and the form refuses the main ship
// again with a reason (combat/forms.py, already_in_battle).
(function () {
  "use strict";

  function follow(form, name) {
    var main = form.elements[name];
    if (!main) return;
    form.querySelectorAll('input[data-main-ship="' + name + '"]').forEach(function (box) {
      var chosen = box.value === main.value;
      if (chosen) box.checked = false;
      box.disabled = chosen;
      var label = box.closest("label") || box;
      label.hidden = chosen;
    });
  }

  function all() {
    document.querySelectorAll("input[data-main-ship]").forEach(function (box) {
      if (box.form) follow(box.form, box.getAttribute("data-main-ship"));
    });
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target instanceof HTMLSelectElement && target.form &&
        target.form.querySelector('input[data-main-ship="' + target.name + '"]')) {
      follow(target.form, target.name);
    }
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", all);
  else all();
})();
