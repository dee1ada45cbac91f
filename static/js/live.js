/* Live pages: the server pushes (server-sent events, combat/streams.py), the page fetches.
 *
 * An element with data-stream="<url>" opens one EventSource on that url (one per url) and,
 * when the stream says something changed (and each time it (re)connects, to catch up),
 * refreshes itself: an htmx GET of its data-live-url (read afresh each time: the response
 * replaces the element), swapped as outerHTML, or only the part data-live-select of the
 * answer; data-live-reload reloads the whole page instead. One refresh at a time per
 * element, and one more if a push came during it, so nothing is appended twice.
 * What a person has typed on the page survives the refresh: the fields he changed, the one
 * he is in and its caret are put back into the new content, the element's and whatever the
 * answer replaces out of band (matched by form action, the form's decision and field name),
 * so a push while the GM rewords a challenge loses none of it, nor one while a player picks
 * or types his ship's order (the battle page's decisions come out of band).
 * The EventSource reconnects by itself and sends the last id it saw (Last-Event-ID).
 * "Your turn": the page title follows #your-turn; the optional sound or vibration
 * (off by default) is the checkbox #turn-alert, remembered by the browser.
 */
(function () {
  "use strict";
  var baseTitle = document.title.replace(/^Your turn · /, "");
  var wasMyTurn = !!document.querySelector("#your-turn .your-turn");

  function alertOn() {
    try { return localStorage.getItem("quarterdeck.turnAlert") === "1"; } catch (e) { return false; }
  }

  function beep() {
    if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    var ctx = new Ctx(), osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.frequency.value = 660; gain.gain.value = 0.1;
    osc.connect(gain); gain.connect(ctx.destination);
    osc.start(); osc.stop(ctx.currentTime + 0.25);
  }

  function turnChanged() {
    var mine = !!document.querySelector("#your-turn .your-turn");
    document.title = (mine ? "Your turn · " : "") + baseTitle;
    if (mine && !wasMyTurn && alertOn()) beep();
    wasMyTurn = mine;
    var box = document.getElementById("turn-alert");
    if (box) box.checked = alertOn();
  }

  document.addEventListener("change", function (event) {
    if (event.target.id !== "turn-alert") return;
    try { localStorage.setItem("quarterdeck.turnAlert", event.target.checked ? "1" : "0"); } catch (e) { /* private mode */ }
  });

  function fieldKey(f) {
    var form = f.form;
    var action = form ? (form.getAttribute("action") || "") : "";
    // A battle's decision forms share one action: each is told apart by its decision, and
    // a decision asked again (next turn's orders) by when it was asked, so that it comes
    // with its own default, not the choice left in the last one.
    var decision = form ? [form.className, form.getAttribute("data-actor") || "",
      form.getAttribute("data-kind") || "", form.getAttribute("data-since") || ""
    ].join("\u0000") : "";
    var choice = (f.type === "checkbox" || f.type === "radio") ? f.value : "";
    return action + "\u0000" + decision + "\u0000" + f.name + "\u0000" + choice;
  }

  function changed(f) {
    if (f.type === "checkbox" || f.type === "radio") return f.checked !== f.defaultChecked;
    if (f.tagName === "SELECT") {
      return Array.prototype.some.call(f.options, function (o) { return o.selected !== o.defaultSelected; });
    }
    return f.value !== f.defaultValue;
  }

  function typedFields(el) {
    var kept = {list: [], focus: null};
    el.querySelectorAll("input, select, textarea").forEach(function (f) {
      if (!f.name || ["hidden", "submit", "button"].indexOf(f.type) >= 0) return;
      var key = fieldKey(f);
      if (changed(f)) {
        kept.list.push({key: key, value: f.value, checked: f.checked,
          selected: f.tagName === "SELECT" ? Array.prototype.map.call(f.selectedOptions, function (o) { return o.value; }) : null});
      }
      if (f === document.activeElement) {
        var start = null, end = null;
        try { start = f.selectionStart; end = f.selectionEnd; } catch (e) { /* no caret */ }
        kept.focus = {key: key, start: start, end: end};
      }
    });
    return kept;
  }

  function putBack(el, kept) {
    if (!el || !kept) return;
    var fields = {};
    el.querySelectorAll("input, select, textarea").forEach(function (f) { if (f.name) fields[fieldKey(f)] = f; });
    kept.list.forEach(function (k) {
      var f = fields[k.key];
      if (!f) return;
      if (f.type === "checkbox" || f.type === "radio") f.checked = k.checked;
      else if (f.tagName === "SELECT") {
        Array.prototype.forEach.call(f.options, function (o) { o.selected = k.selected.indexOf(o.value) >= 0; });
      } else f.value = k.value;
    });
    var f = kept.focus && fields[kept.focus.key];
    if (f) {
      f.focus();
      try { if (kept.focus.start !== null) f.setSelectionRange(kept.focus.start, kept.focus.end); } catch (e) { /* no caret */ }
    }
  }

  // The "reload to see what is new" links are for pages without this script.
  function hideReloadLinks() {
    document.querySelectorAll(".live-reload-link").forEach(function (a) { a.hidden = true; });
  }

  var busy = {}, again = {}, typed = {};

  // Just before htmx swaps a live element: what has been typed into it.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var el = event.detail.target;
    // The whole page: the answer may replace other parts too, out of band (the battle
    // page's poller brings its decisions), and a choice made there must survive as well.
    if (el && el.id && el.dataset && el.dataset.liveUrl) typed[el.id] = typedFields(document.body);
  });

  function refresh(id, connected) {
    var el = document.getElementById(id);
    if (!el) return;
    if (el.hasAttribute("data-live-reload")) { if (!connected) window.location.reload(); return; }
    if (busy[id]) { again[id] = true; return; }
    busy[id] = true;
    var options = {source: el, target: el, swap: "outerHTML"};
    if (el.dataset.liveSelect) options.select = el.dataset.liveSelect;
    htmx.ajax("GET", el.dataset.liveUrl, options).then(function () {
      busy[id] = false;
      putBack(document.body, typed[id]);
      delete typed[id];
      hideReloadLinks();
      turnChanged();
      if (again[id]) { again[id] = false; refresh(id, false); }
    }, function () {  // offline or the server away: try again until it answers
      busy[id] = false;
      again[id] = false;
      setTimeout(function () { refresh(id, false); }, 1000);
    });
  }

  function start() {
    if (!window.EventSource || !window.htmx) return;
    var streams = {};
    document.querySelectorAll("[data-stream]").forEach(function (el) {
      (streams[el.dataset.stream] = streams[el.dataset.stream] || []).push(el.id);
    });
    Object.keys(streams).forEach(function (url) {
      var ids = streams[url];
      var source = new EventSource(url);
      source.addEventListener("open", function () {
        ids.forEach(function (id) { refresh(id, true); });
      });
      ["encounter", "state", "campaign"].forEach(function (kind) {
        source.addEventListener(kind, function () {
          ids.forEach(function (id) { refresh(id, false); });
        });
      });
      source.addEventListener("gone", function () { source.close(); window.location.reload(); });
    });
    window.addEventListener("online", function () {
      Object.keys(streams).forEach(function (url) {
        streams[url].forEach(function (id) { refresh(id, true); });
      });
    });
    hideReloadLinks();
    turnChanged();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
