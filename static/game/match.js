// The server redraws everything on each (re)connect, so this file only adds comfort:
// a connection indicator, a confirm on resign, and keeping the newest log line in view.
(function () {
  "use strict";

  function setConnection(state) {
    var badge = document.getElementById("match-connection");
    if (badge) badge.dataset.state = state;
  }

  document.addEventListener("htmx:wsConnecting", function () { setConnection("connecting"); });
  document.addEventListener("htmx:wsOpen", function () { setConnection("open"); });
  document.addEventListener("htmx:wsClose", function () { setConnection("closed"); });

  // Any answer (a redraw, or a notice saying why a move was refused) makes the forms usable again.
  document.addEventListener("htmx:wsAfterMessage", function () {
    var log = document.getElementById("match-log");
    if (log) log.scrollTop = log.scrollHeight;
    document.querySelectorAll(".move-form button:disabled").forEach(function (button) { button.disabled = false; });
  });

  // Until the server answers a sent move, don't invite a second click.
  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target.closest && event.target.closest("form");
    if (!form) return;
    form.querySelectorAll("button").forEach(function (button) { button.disabled = true; });
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });
})();
