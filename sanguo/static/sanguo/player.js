// A seat's forms on the 三国 page: each form closes in the browser when its time does (the 立刻
// cutoff, or the deadline of what runs), saying so before the click; the server refuses it then
// anyway. An identification takes at most its number of IDs, and a skill's targets differ. The
// page's sections are swapped in when the game changes (game.js), so everything here is looked up
// each time rather than kept.
(function () {
  "use strict";
  if (!document.getElementById("sanguo-game")) return;

  function close(form) {
    form.dataset.closed = "";
    for (const field of form.querySelectorAll("button, select, textarea, input:not([type=hidden])")) field.disabled = true;
    const note = form.querySelector("[data-closed-note]");
    if (note) note.hidden = false;
  }

  function tick() {
    const now = Date.now();
    for (const form of document.querySelectorAll("#sanguo-player form[data-closes]:not([data-closed])")) {
      if (Date.parse(form.dataset.closes) <= now) close(form);
    }
  }

  function limit(picks) {
    const boxes = [...picks.querySelectorAll("input[type=checkbox]")];
    const full = boxes.filter((box) => box.checked).length >= Number(picks.dataset.most);
    for (const box of boxes) box.disabled = full && !box.checked;
  }

  function distinct(form) {
    const selects = [...form.querySelectorAll("select[data-distinct]")];
    const seen = new Map();
    for (const select of selects) {
      // A name and its ID are the same target: compare the IDs the options stand for.
      const option = select.selectedOptions[0];
      const ident = option && option.value ? option.textContent.match(/\d+/)?.[0] : "";
      select.setCustomValidity(ident && seen.has(ident) ? select.form.querySelector(".hint-distinct")?.textContent || "≠" : "");
      if (ident) seen.set(ident, select);
    }
  }

  document.addEventListener("change", (event) => {
    const picks = event.target.closest("#sanguo-player [data-most]");
    if (picks) limit(picks);
    if (event.target.matches("#sanguo-player select[data-distinct]")) distinct(event.target.form);
  });
  document.addEventListener("submit", (event) => {
    const picks = event.target.querySelector("[data-most]");
    if (picks && !picks.querySelector("input:checked")) {
      event.preventDefault();
      picks.querySelector("input:not(:disabled)")?.focus();
    }
  });

  tick();
  setInterval(tick, 1000);
})();
