// A tutorial's page: the server says which step the match is at (#match-tutorial, redrawn with
// every move); this rings the step's targets on the board one after the other, as they are
// clicked, and says what each one is for. A click elsewhere changes nothing here: the ring stays
// where it was, and if its element went away (a choice cancelled) it goes back to the last
// target still on the page. An optional target the page does not show is passed over.
(function () {
  "use strict";

  var RING = "tutorial-target";
  var stepKey = null;
  var index = 0;

  function panel() { return document.getElementById("match-tutorial"); }

  function targets() {
    var box = panel();
    if (!box || !box.dataset.targets) return [];
    try { return JSON.parse(box.dataset.targets); } catch (error) { return []; }
  }

  function find(target) {
    var element = document.querySelector(target.selector);
    return element && element.getClientRects().length ? element : null;
  }

  function current() {
    var list = targets();
    while (index < list.length - 1 && list[index].optional && !find(list[index])) index += 1;
    for (var i = Math.min(index, list.length - 1); i >= 0; i--) {
      var element = find(list[i]);
      if (element) { index = i; return { element: element, target: list[i] }; }
    }
    return null;
  }

  function refresh() {
    var box = panel();
    if (!box) return;
    if (box.dataset.step !== stepKey) { stepKey = box.dataset.step; index = 0; }
    document.querySelectorAll("." + RING).forEach(function (e) { e.classList.remove(RING); });
    var now = current();
    var hint = box.querySelector(".tutorial__hint");
    if (now) now.element.classList.add(RING);
    if (hint) hint.textContent = now ? now.target.hint : "";
  }

  // Capture: the board's own handlers may redraw what was clicked before this could see it.
  document.addEventListener("click", function (event) {
    var now = current();
    if (now && now.element.contains(event.target)) {
      index += 1;
      setTimeout(refresh, 0);
    }
  }, true);
  document.addEventListener("htmx:wsAfterMessage", function () { setTimeout(refresh, 0); });
  document.addEventListener("DOMContentLoaded", refresh);
})();
