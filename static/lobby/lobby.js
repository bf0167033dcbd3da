// The lobby's live news: when someone joins a match you host, the server pushes #lobby-joined over
// /ws/lobby/ (htmx's websocket extension swaps it in); this plays a short sound and takes you to
// the match, so your clock never runs unseen. The fragment carries a link for when this fails.
(function () {
  "use strict";

  var GO_AFTER_MS = 1200;

  // Whether the news can reach this page (a test waits for it).
  document.addEventListener("htmx:wsOpen", function (event) { event.target.dataset.state = "open"; });
  document.addEventListener("htmx:wsClose", function (event) { event.target.dataset.state = "closed"; });

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
})();
