// The 三国 game page: counts its deadline down, and fetches itself again when its socket says that
// what this viewer may see has changed (sanguo/consumers.py), swapping in the new sections. The
// socket reconnects after a drop and the page is fetched then too, so nothing missed stays missed.
// A section holding a form its reader has started to fill in is not swapped: a game master's
// ruling or a player's action half written would be lost to someone else's move. It says that it
// is out of date instead, with a button that shows the new version.
(function () {
  "use strict";
  const root = document.getElementById("sanguo-game");
  if (!root) return;

  function countdown() {
    for (const time of document.querySelectorAll("time[data-deadline]")) {
      const left = Math.max(0, Math.round((Date.parse(time.getAttribute("datetime")) - Date.now()) / 1000));
      const out = time.parentElement.querySelector("[data-left]");
      if (!out) continue;
      const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      out.textContent = (h ? h + ":" : "") + String(m).padStart(h ? 2 : 1, "0") + ":" + String(s).padStart(2, "0");
    }
  }

  // One fetch at a time, and one more after it if a ring came meanwhile: a slow answer never lands
  // after a newer one.
  let fetching = false, again = false;
  async function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      do { again = false; await swap(); } while (again);
    } finally {
      fetching = false;
    }
  }

  // The server's markup of each section as last shown: a fetched section that equals it changes
  // nothing, so a section being edited is only called out of date when it really is. What differs
  // between two renderings of the same thing is left out: the CSRF token (masked anew each time)
  // and the time left, which the countdown keeps anyway.
  function signature(section) {
    const copy = section.cloneNode(true);
    for (const token of copy.querySelectorAll("input[name=csrfmiddlewaretoken]")) token.removeAttribute("value");
    for (const left of copy.querySelectorAll("[data-left]")) left.textContent = "";
    return copy.outerHTML;
  }
  const shown = new Map([...root.querySelectorAll(":scope > section[id]")].map((s) => [s.id, signature(s)]));

  function changed(field) {
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      const options = [...field.options];
      if (field.multiple) return options.some((option) => option.selected !== option.defaultSelected);
      // With no option marked selected in the markup, the browser shows the first.
      return field.selectedIndex !== Math.max(0, options.findIndex((option) => option.defaultSelected));
    }
    if (field.tagName === "TEXTAREA" || (field.tagName === "INPUT" && !["hidden", "submit", "button", "reset"].includes(field.type))) {
      return field.value !== field.defaultValue;
    }
    return false;
  }

  function edited(section) {
    return [...section.querySelectorAll("form")].some(
      (form) => form.dataset.rowsEdited !== undefined || [...form.elements].some(changed)
    );
  }

  function show(section) {
    const old = document.getElementById(section.id);
    shown.set(section.id, signature(section));
    if (old) old.replaceWith(section);
    else root.append(section);
  }

  function outOfDate(old, section) {
    let note = old.querySelector(":scope > [data-out-of-date]");
    if (!note) {
      note = document.createElement("p");
      note.className = "message message--info";
      note.dataset.outOfDate = "";
      note.setAttribute("role", "status");
      note.append(root.dataset.staleText + " ");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "button button--small";
      button.textContent = root.dataset.showNew;
      note.append(button);
      const heading = old.querySelector(":scope > h2, :scope > h3");
      if (heading) heading.after(note);
      else old.prepend(note);
    }
    note.querySelector("button").onclick = () => { show(section); countdown(); };
  }

  async function swap() {
    const response = await fetch(window.location.href, { headers: { "X-Requested-With": "fetch" } });
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.getElementById("sanguo-game");
    const focused = document.activeElement && root.contains(document.activeElement) && document.activeElement.closest("form");
    const sections = [...fresh.querySelectorAll(":scope > section[id]")];
    const kept = new Set(sections.map((section) => section.id));
    for (const section of sections) {
      const old = document.getElementById(section.id);
      if (!old) show(section);
      else if (shown.get(section.id) === signature(section)) old.querySelector(":scope > [data-out-of-date]")?.remove();
      else if ((focused && old.contains(focused)) || edited(old)) outOfDate(old, section);
      else show(section);
    }
    for (const old of root.querySelectorAll(":scope > section[id]")) {
      if (!kept.has(old.id)) old.remove();
    }
    // A section this page did not have may come with a script it did not load: the console's,
    // when the game master hands it to someone watching.
    for (const script of page.querySelectorAll("script[src]")) {
      const src = script.getAttribute("src");
      if (![...document.scripts].some((loaded) => loaded.getAttribute("src") === src)) {
        const added = document.createElement("script");
        added.src = src;
        document.head.append(added);
      }
    }
    countdown();
  }

  let delay = 1000;
  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + window.location.host + root.dataset.socket + window.location.search);
    socket.onopen = () => { delay = 1000; root.dataset.connection = "open"; };
    socket.onmessage = (message) => { if (JSON.parse(message.data).type === "changed") refresh(); };
    socket.onclose = (event) => {
      root.dataset.connection = "closed";
      if (event.code === 4404) return;
      setTimeout(() => { connect(); refresh(); }, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }

  // Rows added or removed by the console's or the game data's script are edits the fields' values
  // do not show.
  root.addEventListener("click", (event) => {
    const button = event.target.closest("[data-add-row], [data-remove-row]");
    const form = button && button.closest("form");
    if (form) form.dataset.rowsEdited = "";
  }, true);

  countdown();
  setInterval(countdown, 1000);
  connect();
})();
