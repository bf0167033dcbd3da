// The move clocks ticking down, on the match page and "Your games" alike (templates/game/_clock.html).
(function () {
  "use strict";

  // Clocks: the server draws each with the deadline and its own time then (epoch ms). How far this
  // browser's clock is off is taken once, when a clock first shows up, so a wrong clock on the
  // reader's machine does not move the deadline; every redraw brings fresh ones.
  var URGENT_SECONDS = 10;

  function twoDigits(n) { return (n < 10 ? "0" : "") + n; }

  // As the server writes it (game/live/presenter.py, clock_text): "4:05", "1:02:03", "2d 03h".
  function clockText(left) {
    if (left >= 86400) return Math.floor(left / 86400) + "d " + twoDigits(Math.floor(left % 86400 / 3600)) + "h";
    var minutes = Math.floor(left / 60) % 60, seconds = twoDigits(left % 60);
    if (left >= 3600) return Math.floor(left / 3600) + ":" + twoDigits(minutes) + ":" + seconds;
    return Math.floor(left / 60) + ":" + seconds;
  }

  function tickClocks() {
    document.querySelectorAll(".clock[data-deadline]").forEach(function (clock) {
      if (!clock.dataset.offset) clock.dataset.offset = Number(clock.dataset.serverTime) - Date.now();
      var now = Date.now() + Number(clock.dataset.offset);
      var left = Math.max(0, Math.ceil((Number(clock.dataset.deadline) - now) / 1000));
      clock.querySelector(".clock-time").textContent = clockText(left);
      clock.classList.toggle("clock--urgent", left <= URGENT_SECONDS);
    });
  }

  setInterval(tickClocks, 1000);

  document.addEventListener("DOMContentLoaded", tickClocks);

  // Every redraw of the match page brings fresh clocks.
  document.addEventListener("htmx:wsAfterMessage", tickClocks);
})();
