// The replay viewer's page and stepping, the same for every game: Replay.page() reads the parts of
// templates/history/replay.html, and Replay.controls() makes its controls (buttons, arrow keys, play
// and pause) move through a game's steps, which the game's own replay script draws.
(function () {
  "use strict";

  // A frame's view from the one before and its changes (game/history/deltas.py): each container on
  // a changed path is copied once, so the views share what did not change and none is altered.
  function changed(before, ops) {
    const root = { view: before };
    const copied = new Set();
    const own = (parent, key) => {
      let child = parent[key];
      if (!copied.has(child)) {
        child = Array.isArray(child) ? child.slice() : Object.assign({}, child);
        parent[key] = child;
        copied.add(child);
      }
      return child;
    };
    for (const [kind, path, value] of ops) {
      let parent = root;
      let key = "view";
      for (const step of path) {
        parent = own(parent, key);
        key = step;
      }
      if (kind === "s") parent[key] = value;
      else if (kind === "d") delete parent[key];
      else own(parent, key).length = value;
    }
    return root.view;
  }

  // The host's chance in whole per cent after each frame's command, on a finished match's page
  // (game/history/replay_views.py), else null.
  let winChances = null;

  // The win-chance bar (templates/history/_replay_win_chance.html) as it stood after ``frame``.
  function showWinChance(frame) {
    const bar = document.getElementById("replay-win-chance-bar");
    const label = document.getElementById("replay-win-chance");
    if (!winChances || !bar || !label) return;
    const host = winChances[frame];
    bar.value = host;
    label.querySelector(".win-chance-host").textContent = label.dataset.host.replace("{}", host);
    label.querySelector(".win-chance-guest").textContent = label.dataset.guest.replace("{}", 100 - host);
  }

  // The page's parts and its frames (json_script "replay-data", every view after the first sent as
  // its changes) with the game's words ("replay-text"), or null on a page without a replay.
  function page() {
    const root = document.getElementById("replay");
    const source = document.getElementById("replay-data");
    if (!root || !source) return null;
    const data = JSON.parse(source.textContent);
    winChances = data.win_chances || null;
    data.frames.forEach((frame, f) => {
      if (f > 0) frame.view = changed(data.frames[f - 1].view, frame.changes);
    });
    return {
      root: root,
      data: data,
      frames: data.frames,
      text: document.getElementById("replay-text").dataset,
      board: document.getElementById("replay-board"),
      log: document.getElementById("replay-log"),
      position: document.getElementById("replay-position"),
    };
  }

  // Scrolls the log box, and nothing else, so that its line ``line`` is in view: scrollIntoView
  // would scroll the page too, and on a phone, where the log lies below the board, each step would
  // take the board off the screen.
  function reveal(box, line) {
    const inside = box.getBoundingClientRect().top + box.clientTop;
    const where = line.getBoundingClientRect();
    if (where.top < inside) box.scrollTop -= inside - where.top;
    else if (where.bottom > inside + box.clientHeight) box.scrollTop += where.bottom - inside - box.clientHeight;
  }

  // options: count (how many steps), turnOf(index) (a value that the steps of one turn share, and
  // no step of another turn), draw(index), interval (ms between steps while playing) and frameOf(index)
  // (the frame a step draws, when a frame has several steps; else the step's own index).
  // Returns show(index), to jump to a step from the game's own controls.
  function controls(root, options) {
    const last = options.count - 1;
    const playButton = root.querySelector('[data-go="play"]');
    const playLabel = playButton.textContent;
    let current = 0;
    let timer = null;

    function show(index) {
      current = Math.max(0, Math.min(index, last));
      options.draw(current);
      showWinChance(options.frameOf ? options.frameOf(current) : current);
      if (current === last) stop();
    }

    function turnStart(index) {
      let i = index;
      while (i > 0 && options.turnOf(i - 1) === options.turnOf(index)) i--;
      return i;
    }

    function nextTurn() {
      let i = current;
      while (i < last && options.turnOf(i) === options.turnOf(current)) i++;
      return i;
    }

    function previousTurn() {
      const start = turnStart(current);
      return start < current ? start : turnStart(Math.max(start - 1, 0));
    }

    function stop() {
      if (timer === null) return;
      clearInterval(timer);
      timer = null;
      playButton.textContent = playLabel;
      playButton.setAttribute("aria-pressed", "false");
    }

    function play() {
      if (timer !== null) return stop();
      if (current === last) show(0);
      timer = setInterval(() => show(current + 1), options.interval);
      playButton.textContent = playButton.dataset.pause;
      playButton.setAttribute("aria-pressed", "true");
    }

    const actions = {
      first: () => show(0),
      last: () => show(last),
      prev: () => show(current - 1),
      next: () => show(current + 1),
      "prev-turn": () => show(previousTurn()),
      "next-turn": () => show(nextTurn()),
      play: play,
    };

    root.addEventListener("click", (event) => {
      const button = event.target.closest("[data-go]");
      if (button) actions[button.dataset.go]();
    });
    document.addEventListener("keydown", (event) => {
      // Arrow keys belong to form fields while one has focus (the round and perspective menus).
      if (event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
      const keys = {
        ArrowLeft: event.shiftKey ? "prev-turn" : "prev",
        ArrowRight: event.shiftKey ? "next-turn" : "next",
        Home: "first",
        End: "last",
      };
      if (!(event.key in keys)) return;
      event.preventDefault();
      actions[keys[event.key]]();
    });

    root.hidden = false;
    show(0);
    return show;
  }

  window.Replay = { page: page, controls: controls, reveal: reveal };
})();
