// The 三国 game page: counts its deadline down, and fetches itself again when its socket says that
// what this viewer may see has changed (sanguo/consumers.py), swapping in the new sections. The
// socket reconnects after a drop and the page is fetched then too, so nothing missed stays missed.
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

  async function swap() {
    const response = await fetch(window.location.href, { headers: { "X-Requested-With": "fetch" } });
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html").getElementById("sanguo-game");
    const focused = document.activeElement && root.contains(document.activeElement) && document.activeElement.closest("form");
    const sections = [...fresh.querySelectorAll(":scope > section[id]")];
    const kept = new Set(sections.map((section) => section.id));
    // A form being filled in is left as it is; everything else is replaced.
    for (const section of sections) {
      const old = document.getElementById(section.id);
      if (old && !(focused && old.contains(focused))) old.replaceWith(section);
      else if (!old) root.append(section);
    }
    for (const old of root.querySelectorAll(":scope > section[id]")) {
      if (!kept.has(old.id)) old.remove();
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

  countdown();
  setInterval(countdown, 1000);
  connect();
})();
