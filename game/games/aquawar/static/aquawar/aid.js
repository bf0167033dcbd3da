// The deduction aid: "What could they be?" opens it under each hidden enemy, and it stays open,
// redrawn after every move, until its player closes it (remembered per match in this browser, so
// a reload keeps it). The board's assertion grid (board.js) asks it for the candidates too.
(function () {
  "use strict";

  var STORE = "aquawar-aid:";
  // The last answer: the version it was asked at and what came back ({pos: [species]}, nodes).
  var answer = { version: null, promise: null };
  var shown = [];

  function button() { return document.querySelector(".aid-button[data-aid-url]"); }
  function version() {
    var status = document.getElementById("match-status");
    return status ? status.dataset.version : null;
  }

  function remembered(url) {
    try { return window.localStorage.getItem(STORE + url) === "open"; } catch (error) { return false; }
  }

  function remember(url, open) {
    try {
      if (open) window.localStorage.setItem(STORE + url, "open");
      else window.localStorage.removeItem(STORE + url);
    } catch (error) { /* storage off: the aid simply does not outlive the page */ }
  }

  function ask() {
    var b = button();
    if (!b) return Promise.resolve({ species: {}, nodes: [] });
    if (answer.version !== version()) {
      answer = {
        version: version(),
        promise: fetch(b.dataset.aidUrl, { credentials: "same-origin" })
          .then(function (response) { return response.ok ? response.text() : ""; })
          .then(function (html) {
            var nodes = Array.prototype.slice.call(
              new DOMParser().parseFromString(html, "text/html").querySelectorAll(".fish-aid[id]"));
            var species = {};
            nodes.forEach(function (node) {
              node.removeAttribute("hx-swap-oob");
              species[Number(node.id.replace("aid-", ""))] = (node.dataset.species || "").split(" ").filter(Boolean);
            });
            return { species: species, nodes: nodes };
          })
          .catch(function () { return { species: {}, nodes: [] }; }),
      };
    }
    return answer.promise;
  }

  function show(open) {
    var b = button();
    if (!b) return;
    b.setAttribute("aria-expanded", String(open));
    b.textContent = open ? b.dataset.textHide : b.dataset.textShow;
    if (!open) {
      document.querySelectorAll(".fish-aid").forEach(function (aid) { aid.textContent = ""; });
      return;
    }
    // The last answer stays in place while the new one is worked out, so the aid does not blink.
    place(shown);
    ask().then(function (found) {
      if (!remembered(b.dataset.aidUrl)) return;
      shown = found.nodes;
      place(shown);
    });
  }

  function place(nodes) {
    nodes.forEach(function (node) {
      var spot = document.getElementById(node.id);
      if (!spot) return;
      var copy = node.cloneNode(true);
      copy.title = copy.textContent;
      spot.replaceWith(copy);
    });
  }

  function setup() {
    var b = button();
    if (!b) return;
    if (!b.dataset.ready) {
      b.dataset.ready = "1";
      b.addEventListener("click", function () {
        var open = !remembered(b.dataset.aidUrl);
        remember(b.dataset.aidUrl, open);
        show(open);
      });
    }
    show(remembered(b.dataset.aidUrl));
  }

  window.AquawarAid = {
    candidates: function () { return ask().then(function (found) { return found.species; }); },
  };
  document.addEventListener("DOMContentLoaded", setup);
  document.addEventListener("htmx:wsAfterMessage", setup);
})();
