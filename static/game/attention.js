// Telling a player it is their move when they look elsewhere: "Your turn" in the tab's title, a
// browser notification while the page is hidden (if they turned it on), and short sounds on their
// turn, on their clock's last 10 seconds and at the match's end (on unless muted; both switches are
// remembered in this browser). And when a rematch is accepted while the page is open, it goes there.
(function () {
  "use strict";

  var SOUND = "match-sound";
  var NOTIFY = "match-notify";
  var LAST_SECONDS = 10;
  var page = null;
  var title = document.title;
  // What the page showed at the last check. Null until the first one: the state the page opens on
  // (after a reload, or after the lobby's own chime brought the player here) makes no sound.
  var seen = { yourMove: null, status: null, rematch: null, urgent: false };

  function stored(key, fallback) {
    try {
      var value = window.localStorage.getItem(key);
      return value === null ? fallback : value === "on";
    } catch (error) { return fallback; }
  }

  function store(key, on) {
    try { window.localStorage.setItem(key, on ? "on" : "off"); } catch (error) { /* kept for this page only */ }
  }

  // ---- Sounds: static/game/chime.js plays them (and keeps quiet when muted) ----

  function tones(notes) {
    if (!stored(SOUND, true) || !window.chime) return;
    if (window.chime(notes)) page.dataset.lastSound = notes.join(" ");
  }

  var SOUNDS = {
    turn: [660, 880],
    urgent: [988, 988, 988],
    won: [523, 659, 784, 1047],
    over: [784, 659, 523],
  };

  // ---- The switches ----

  function drawSwitches() {
    var sound = page.querySelector(".sound-switch");
    var notify = page.querySelector(".notify-switch");
    var on = stored(SOUND, true);
    sound.setAttribute("aria-pressed", String(on));
    sound.textContent = on ? sound.dataset.textOn : sound.dataset.textOff;
    if (!notify) return;  // a spectator has no turn to be told of
    var wanted = stored(NOTIFY, false) && "Notification" in window && Notification.permission === "granted";
    notify.hidden = !("Notification" in window);
    notify.setAttribute("aria-pressed", String(wanted));
    notify.textContent = wanted ? notify.dataset.textOn : notify.dataset.textOff;
  }

  function setupSwitches() {
    var box = page.querySelector(".match-alerts");
    if (!box) return;
    box.hidden = false;
    page.querySelector(".sound-switch").addEventListener("click", function () {
      store(SOUND, !stored(SOUND, true));
      drawSwitches();
      if (stored(SOUND, true)) tones(SOUNDS.turn);
    });
    var notifySwitch = page.querySelector(".notify-switch");
    if (notifySwitch) notifySwitch.addEventListener("click", function () {
      if (stored(NOTIFY, false) && Notification.permission === "granted") {
        store(NOTIFY, false);
        drawSwitches();
        return;
      }
      Promise.resolve(Notification.requestPermission()).then(function (answer) {
        store(NOTIFY, answer === "granted");
        // A browser that blocks the site asks nothing and answers "denied" at once: without a
        // word the switch would seem broken.
        page.querySelector(".notify-blocked").hidden = answer !== "denied";
        drawSwitches();
      });
    });
    drawSwitches();
  }

  // ---- Watching the page's state ----

  function notify(words) {
    if (!document.hidden || !stored(NOTIFY, false) || !("Notification" in window)) return;
    if (Notification.permission !== "granted") return;
    var note = new Notification(words, { body: title, tag: "match-turn" });
    note.onclick = function () { window.focus(); note.close(); };
  }

  function ownClockLeft() {
    // The viewer's own running clock is the one beside their controls (docs/protocol.md).
    var clock = document.querySelector("#match-controls .clock[data-deadline]");
    if (!clock || !clock.dataset.offset) return null;
    return (Number(clock.dataset.deadline) - (Date.now() + Number(clock.dataset.offset))) / 1000;
  }

  function check() {
    var status = document.getElementById("match-status");
    if (!status) return;
    var yourMove = status.dataset.yourMove === "true";
    document.title = yourMove ? "▶ " + page.dataset.textYourTurn + " · " + title : title;
    if (yourMove && seen.yourMove === false) {
      tones(SOUNDS.turn);
      notify(page.dataset.textYourTurn);
    }
    seen.yourMove = yourMove;
    var finished = status.dataset.status === "finished";
    if (finished && seen.status !== null && seen.status !== "finished") {
      tones(status.querySelector(".banner--won") ? SOUNDS.won : SOUNDS.over);
      notify(status.querySelector(".match-result") ? status.querySelector(".match-result").textContent.trim() : title);
    }
    seen.status = status.dataset.status;
    var rematch = document.getElementById("match-rematch");
    var state = rematch ? rematch.dataset.state : null;
    // Only an acceptance seen happening here moves the page: an old match's page stays readable.
    if (state === "accepted" && seen.rematch !== null && seen.rematch !== "accepted" && rematch.dataset.href) {
      window.location.assign(rematch.dataset.href);
    }
    seen.rematch = state || "";
  }

  function tick() {
    var left = ownClockLeft();
    var urgent = left !== null && left > 0 && left <= LAST_SECONDS;
    if (urgent && !seen.urgent) tones(SOUNDS.urgent);
    seen.urgent = urgent;
  }

  document.addEventListener("DOMContentLoaded", function () {
    page = document.querySelector(".match-page");
    if (!page) return;
    setupSwitches();
    check();
    setInterval(tick, 1000);
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (page) check();
  });
})();
