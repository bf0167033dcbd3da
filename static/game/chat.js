// The match page's chat box (templates/game/_chat_box.html) and the fairness buttons beside the
// opponent's presence (templates/game/_opponent.html). Everything works without this file: the
// forms post; it adds the confirmations and the timing, and keeps the chat scrolled.
(function () {
  "use strict";


  // Forms sent over the socket skip the page's submit confirmation; these ask first.
  document.addEventListener("htmx:wsConfigSend", function (event) {
    var form = event.target.closest && event.target.closest("form[data-ws-confirm]");
    if (form && !window.confirm(form.dataset.wsConfirm)) event.preventDefault();
  });

  // A sent message clears the box for the next one; the newest line stays in view.
  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target.closest && event.target.closest(".chat-form");
    if (form) form.reset();
  });

  function scrollChat() {
    var log = document.getElementById("chat-log");
    if (log) log.scrollTop = log.scrollHeight;
  }
  document.addEventListener("DOMContentLoaded", scrollChat);

  // The claim buttons appear once the opponent has been away as long as the clock allows (the
  // server checks again when one is pressed).
  function showClaims() {
    document.querySelectorAll(".claim[hidden][data-claim-at]").forEach(function (box) {
      if (Date.now() >= Number(box.dataset.claimAt)) box.hidden = false;
    });
  }
  setInterval(showClaims, 1000);

  // The host waiting on the match page hears the opponent arrive from static/game/attention.js:
  // the match starts with both players' picks, so their turn sound is the arrival.
  document.addEventListener("htmx:wsAfterMessage", function () {
    showClaims();
    scrollChat();
  });
})();
