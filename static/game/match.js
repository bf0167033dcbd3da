// The server redraws everything on each (re)connect, so this file only adds comfort:
// a connection indicator, a confirm on resign, and keeping the newest log line in view (the clocks
// tick in clock.js). A game's own script (loaded after this one) enhances its forms.
(function () {
  "use strict";

  function setConnection(state) {
    var badge = document.getElementById("match-connection");
    if (badge) badge.dataset.state = state;
  }

  // The page's own socket is the one on .match-page; a player's finished match also listens on
  // the lobby's (in the status box), whose comings and goings say nothing of this one.
  function matchSocket(event) {
    return event.target && event.target.classList && event.target.classList.contains("match-page");
  }

  // "Connected" once the server's redraw on (re)connect has come in, not at the socket's open:
  // until then the page may still show what it had before the connection.
  var redrawDue = false;

  document.addEventListener("htmx:wsConnecting", function (event) {
    if (matchSocket(event)) setConnection("connecting");
  });
  // 4013: the server could not serve the socket for a moment (its Redis restarting, say) and asks
  // to be tried again; the extension itself only retries the standard codes.
  var TRY_AGAIN_LATER = 4013;
  // 4401: the login the socket was opened with ended (a logout, a password change elsewhere); a new
  // socket speaks for whoever the browser is logged in as now, and the server redraws the page.
  var LOGIN_ENDED = 4401;
  // 4430: too many connects from this account or address for now (the page shows why); a refused
  // connect takes no place, so trying again now and then costs nothing.
  var TOO_MANY_CONNECTS = 4430;
  document.addEventListener("htmx:wsClose", function (event) {
    if (!matchSocket(event)) return;
    redrawDue = false;
    setConnection("closed");
    var code = event.detail.event.code;
    var reconnect = function () { event.detail.socketWrapper.reconnect(); };
    if (code === TRY_AGAIN_LATER || code === LOGIN_ENDED) {
      setTimeout(reconnect, 500 + Math.random() * 1000);
    } else if (code === TOO_MANY_CONNECTS) {
      setTimeout(reconnect, 30000 + Math.random() * 10000);
    }
  });

  // A socket over a network that went away can look open for minutes, and the extension's backoff
  // can leave a page waiting long after the network is back. So when the browser says it is
  // offline the socket is closed (the page then says so), and when it is back online the page
  // reconnects at once; the server redraws everything on connect.
  var live = null;
  document.addEventListener("htmx:wsOpen", function (event) {
    if (!matchSocket(event)) return;
    live = { socket: event.detail.event.target, wrapper: event.detail.socketWrapper };
    redrawDue = true;
  });
  window.addEventListener("offline", function () {
    setConnection("closed");
    if (live && live.socket.readyState === WebSocket.OPEN) live.socket.close();
  });
  window.addEventListener("online", function () {
    if (live) live.wrapper.reconnect();
  });

  // On a phone the log starts folded, its newest line on the fold.
  var NARROW = "(max-width: 40rem)";

  // What came after the viewer's own last decision (lines marked data-own) is marked new.
  function markNew(log) {
    var own = log.querySelectorAll(".log-entry[data-own]");
    var since = own.length ? Number(own[own.length - 1].dataset.version) : Infinity;
    var label = log.closest("[data-text-new]");
    var first = true;
    log.querySelectorAll(".log-entry").forEach(function (entry) {
      var fresh = Number(entry.dataset.version) > since;
      entry.classList.toggle("log-entry--new", fresh);
      if (fresh && first && label) entry.dataset.newLabel = label.dataset.textNew;
      else delete entry.dataset.newLabel;
      if (fresh) first = false;
    });
  }

  // Each new log line is said once, in the one live region that stays on the page
  // (#match-announcer): the log itself is redrawn whole on a reconnect. What the page showed when it
  // loaded is not read out; "Your turn" is, when the move becomes the viewer's.
  var announced = null;
  var yourMove = null;
  var KEEP_ANNOUNCED = 6;

  function announce(log) {
    var region = document.getElementById("match-announcer");
    var status = document.getElementById("match-status");
    if (!region) return;
    var lines = [];
    var since = announced;
    announced = since === null ? -1 : since;
    log.querySelectorAll(".log-entry").forEach(function (entry) {
      // One move's lines share its version (a turn's heading, the hits, a defeat).
      var version = Number(entry.dataset.version);
      if (since !== null && version > since) lines.push(entry.querySelector(".log-text").textContent);
      announced = Math.max(announced, version);
    });
    var mine = Boolean(status && status.dataset.yourMove === "true");
    if (mine && yourMove === false) lines.push(document.querySelector(".match-page").dataset.textYourTurn);
    yourMove = mine;
    lines.forEach(function (line) {
      var said = document.createElement("span");
      said.textContent = line + " ";
      region.appendChild(said);
    });
    while (region.childNodes.length > KEEP_ANNOUNCED) region.removeChild(region.firstChild);
  }

  function showLatest() {
    var log = document.getElementById("match-log");
    if (!log) return;
    markNew(log);
    announce(log);
    log.scrollTop = log.scrollHeight;
    var latest = document.querySelector(".log-latest");
    var last = log.querySelector(".log-entry:last-child .log-text");
    if (latest) latest.textContent = last ? last.textContent : "";
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector("details.match-log-box");
    if (box && window.matchMedia(NARROW).matches) box.open = false;
    showLatest();
  });

  // Any answer (a redraw, or a notice saying why a move was refused) makes the forms usable again.
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    if (redrawDue && matchSocket(event)) {
      redrawDue = false;
      setConnection("open");
    }
    showLatest();
    document.querySelectorAll(".move-form button:disabled").forEach(function (b) { b.disabled = false; });
  });

  // Until the server answers a sent move, don't invite a second click.
  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target.closest && event.target.closest("form");
    if (!form) return;
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });
})();
