// The lobby's live news over /ws/lobby/ (htmx's websocket extension swaps it in): when someone joins a
// match you host, accepts your challenge, or a tournament starts your round, #lobby-joined arrives
// and this plays a short sound and takes you to the match, so your clock never runs unseen (the
// fragment carries a link for when this fails); a challenge made to you rings. And the Copy buttons
// of invite links.
(function () {
  "use strict";

  var GO_AFTER_MS = 1200;

  // Whether the news can reach this page (a test waits for it).
  document.addEventListener("htmx:wsOpen", function (event) { event.target.dataset.state = "open"; });
  document.addEventListener("htmx:wsClose", function (event) { event.target.dataset.state = "closed"; });

  // A challenge made to you rings too (its row, with Accept and Decline, comes with the lists).
  document.addEventListener("htmx:wsAfterMessage", function () {
    var news = document.getElementById("lobby-challenge-news");
    if (!news || news.dataset.news !== "received" || news.dataset.rung) return;
    news.dataset.rung = "1";
    var sound = [880, 660];
    if (window.chime && window.chime(sound)) news.dataset.lastSound = sound.join(" ");
  });

  var going = false;
  document.addEventListener("htmx:wsAfterMessage", function () {
    var news = document.getElementById("lobby-joined");
    if (going || !news || !news.dataset.url) return;
    going = true;
    var sound = [660, 880];
    // What it played is written on the news, for the browser tests (as the match page does).
    if (window.chime && window.chime(sound)) news.dataset.lastSound = sound.join(" ");
    setTimeout(function () { window.location.assign(news.dataset.url); }, GO_AFTER_MS);
  });

  // Invite links: a Copy button beside each, shown only where the browser lets a page copy.
  function showCopyButtons(root) {
    if (!navigator.clipboard) return;
    root.querySelectorAll("[data-copy][hidden]").forEach(function (button) { button.hidden = false; });
  }
  showCopyButtons(document);
  document.addEventListener("htmx:load", function (event) { showCopyButtons(event.target); });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.dataset.copy);
    var label = button.dataset.label || button.textContent;
    button.dataset.label = label;
    function say(text) {
      button.textContent = text;
      setTimeout(function () { button.textContent = label; }, 2000);
    }
    navigator.clipboard.writeText(field.value).then(
      function () { say(button.dataset.copied); },
      function () { field.select(); say(button.dataset.copyFailed); }
    );
  });
})();
