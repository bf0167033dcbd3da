// 神迹之战 replay viewer: the board as it was after each command, stepped by command or by turn, from
// frames the server projected for one audience (json_script "replay-data"). It draws only what a
// frame's view and events hold; every name goes in through textContent.
(function () {
  "use strict";
  const page = window.Replay.page();
  if (!page) return;
  const { root, data, frames, text, board, log, position } = page;
  const map = data.map;
  const NS = "http://www.w3.org/2000/svg";
  const where = {};
  map.cells.forEach((c) => { where[c.key] = c; });
  const key = (cell) => cell.join(",");
  // One identity per player, as on the match page: the host "a" (solid circle), the guest "b" (dashed diamond).
  const tone = (seat) => (seat === null || seat === undefined ? "none" : seat === 0 ? "a" : "b");
  // A last blow may take a miracle below 0; the page says 0, as the match page and the summary do.
  const hpOf = (view, seat) => Math.max(0, view.miracle_hp[seat]);

  // A step is a command; the turn it belongs to is the state before it.
  const steps = frames.map((frame, f) => {
    const before = frames[Math.max(f - 1, 0)].view;
    return { frame: f, turn: f === 0 ? null : before.phase === "deck" ? 0 : before.turn };
  });

  root.querySelector('[data-go="prev"]').textContent = text.prevCommand;
  root.querySelector('[data-go="next"]').textContent = text.nextCommand;

  function el(tag, className, content) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (content !== undefined) node.textContent = content;
    return node;
  }

  function svgEl(tag, attrs, parent) {
    const node = document.createElementNS(NS, tag);
    for (const name in attrs) node.setAttribute(name, attrs[name]);
    if (parent) parent.append(node);
    return node;
  }

  function use(href, x, y, size, parent, className) {
    const node = svgEl("use", { href: href, x: x, y: y, width: size, height: size }, parent);
    if (className) node.setAttribute("class", className);
    return node;
  }

  // The map itself, drawn once.
  const wrap = el("div", "hexmap-wrap");
  const svg = svgEl("svg", { class: "hexmap", viewBox: map.view_box, "data-view-box": map.view_box, role: "img", "aria-label": text.map });
  svgEl("polygon", { id: "mh-hex", points: map.hex }, svgEl("defs", {}, svg));
  const hexes = {};
  const cellLayer = svgEl("g", { class: "cells" }, svg);
  const terrain = svgEl("g", { class: "terrain", "aria-hidden": "true" }, svg);
  map.cells.forEach((c) => {
    hexes[c.key] = svgEl("use", { href: "#mh-hex", x: c.x, y: c.y, "data-cell": c.key }, cellLayer);
    if (c.terrain === "abyss") use(text.abyss, c.ix, c.iy, 12, terrain);
  });
  const dynamic = svgEl("g", { class: "replay-pieces" }, svg);
  // Zoomed as the live map is (mapzoom.js): wheel, drag, pinch, these buttons and + - 0.
  const zoomButtons = el("div", "zoom-buttons");
  zoomButtons.setAttribute("aria-label", text.zoom);
  [["in", "+", text.zoomIn], ["out", "−", text.zoomOut], ["reset", "⤢", text.zoomWhole]].forEach(([kind, label, title]) => {
    const b = el("button", "button button--small", label);
    b.type = "button";
    b.dataset.zoom = kind;
    b.title = title;
    b.setAttribute("aria-label", title);
    zoomButtons.append(b);
  });
  wrap.append(svg, zoomButtons);
  const strips = [el("div"), el("div")];
  board.classList.add("miracle-replay");
  board.append(strips[0], wrap, strips[1]);
  const zoom = window.MiracleZoom(".miracle-replay");
  zoom.keep();
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    zoom.key(event.key);
  });

  function strip(view, seat) {
    const box = el("div", "side-strip side-strip--" + tone(seat));
    if (view.phase === "play" && view.current === seat) box.classList.add("side-strip--to-move");
    const head = el("p", "strip-head");
    head.append(el("span", "team-icon", tone(seat) === "a" ? "●" : "◆"), " ",
      el("strong", "strip-name", data.players[seat] || "?"));
    box.append(head);
    const facts = el("ul", "strip-facts");
    facts.append(el("li", "fact", text.miracle + " " + hpOf(view, seat) + "/30"),
      el("li", "fact", text.mana + " " + view.mana[seat] + "/" + view.max_mana[seat]));
    box.append(facts);
    const deck = view.decks[seat];
    if (deck) {
      const list = el("ul", "cards");
      const pools = view.pools[seat] || {};
      deck.creatures.forEach((t) => {
        const pool = pools[t];
        const card = el("li", "card");
        const name = data.creatures[t] ? data.creatures[t].name : t;
        card.append(el("span", "card-name", name));
        if (pool) card.append(el("span", "card-count", pool.available + "/" + pool.capacity + (pool.cooling.length ? " ↺" + pool.cooling.join(",") : "")));
        list.append(card);
      });
      const artifact = view.artifacts[seat];
      if (artifact && data.artifacts[artifact.artifact]) {
        const card = el("li", "card card--artifact");
        card.append(el("span", "card-name", data.artifacts[artifact.artifact].name),
          el("span", "card-count", artifact.state === "cooling" ? "↺" + artifact.cooldown : artifact.state === "ready" ? text.ready : text.inUse));
        list.append(card);
      }
      box.append(list);
    } else {
      box.append(el("p", "strip-note", view.deck_submitted[seat] ? text.deckIn : text.choosing));
    }
    return box;
  }

  function touched(frame, before) {
    // The cells this command changed, lit as the match page lights the other side's turn.
    const lit = {};
    const units = {};
    before.units.concat(frame.view.units).forEach((u) => { if (!(u.id in units)) units[u.id] = key(u.at); });
    const mark = (cell, kind) => { if (cell) (lit[cell] = lit[cell] || []).push(kind); };
    frame.events.forEach((e) => {
      if (e.type === "summon") mark(key(e.at), "summon");
      else if (e.type === "move") { mark(key(e.from), "path"); e.path.forEach((c) => mark(key(c), "path")); mark(key(e.to), "move"); }
      else if (e.type === "attack") mark(units[e.unit], "attacker");
      else if (e.type === "damage") mark("miracle" in e ? key(frame.view.miracles[e.miracle]) : units[e.unit], "hit");
      else if (e.type === "death") mark(units[e.unit], "death");
      else if (e.type === "heal") mark(units[e.unit], "heal");
      else if (e.type === "artifact") mark(e.at ? key(e.at) : units[e.unit], "artifact");
    });
    return lit;
  }

  function drawBoard(index) {
    const frame = frames[index];
    const view = frame.view;
    const lit = touched(frame, frames[Math.max(index - 1, 0)].view);
    const spawns = {};
    view.spawn_points.forEach((cells, seat) => cells.forEach((c) => { spawns[key(c)] = tone(seat); }));
    for (const k in hexes) {
      const c = where[k];
      let cls = "hex hex--" + c.terrain + (spawns[k] ? " hex--spawn-" + spawns[k] : "");
      (lit[k] || []).forEach((kind) => { cls += " hex--" + kind; });
      hexes[k].setAttribute("class", cls);
    }
    dynamic.replaceChildren();
    Object.keys(spawns).forEach((k) => use(text.spawn, where[k].ix, where[k].iy, 12, dynamic, "spawn spawn--" + spawns[k]));
    map.garrisons.forEach((k, i) => {
      const g = svgEl("g", { class: "garrison garrison--" + tone(view.garrisons[i]), transform: "translate(" + where[k].x + " " + where[k].y + ")" }, dynamic);
      use(text.garrison, -7, -7, 14, g);
    });
    view.miracles.forEach((cell, seat) => {
      const c = where[key(cell)];
      const g = svgEl("g", { class: "miracle miracle--" + tone(seat), transform: "translate(" + c.x + " " + c.y + ")" }, dynamic);
      use(text.miracleImage, -9, -10, 18, g);
      svgEl("rect", { class: "miracle-hp-box", x: -8, y: 4, width: 16, height: 9, rx: 2 }, g);
      svgEl("text", { class: "miracle-hp", x: 0, y: 11 }, g).textContent = hpOf(view, seat);
    });
    const ground = new Set(view.units.filter((u) => !u.flying).map((u) => key(u.at)));
    const air = new Set(view.units.filter((u) => u.flying).map((u) => key(u.at)));
    view.units.forEach((u) => {
      const k = key(u.at);
      const shared = ground.has(k) && air.has(k);
      const dx = shared ? (u.flying ? 4 : -3) : 0;
      const dy = shared ? (u.flying ? -4 : 3) : 0;
      const t = tone(u.camp);
      const g = svgEl("g", { class: "token token--" + t, transform: "translate(" + (where[k].x + dx) + " " + (where[k].y + dy) + ") scale(" + (shared ? 0.65 : 1) + ")" }, dynamic);
      const name = data.creatures[u.type] ? data.creatures[u.type].name : u.type;
      svgEl("title", {}, g).textContent = name + " L" + u.level + ": " + text.hp + " " + u.hp + "/" + u.max_hp + ", " + text.atk + " " + u.atk;
      if (t === "a") svgEl("circle", { class: "token-frame", r: 7.6 }, g);
      else svgEl("rect", { class: "token-frame", x: -6, y: -6, width: 12, height: 12, transform: "rotate(45)" }, g);
      if (data.creatures[u.type]) use(data.creatures[u.type].symbol, -6.5, -7, 13, g);
      svgEl("text", { class: "token-stars", x: 0, y: -7.6 }, g).textContent = "★".repeat(u.level);
      svgEl("rect", { class: "token-atk-box", x: -10.5, y: 1.5, width: 9, height: 8, rx: 1.5 }, g);
      svgEl("text", { class: "token-atk", x: -6, y: 7.9 }, g).textContent = u.atk;
      svgEl("rect", { class: "token-hp-box", x: 1.5, y: 1.5, width: 9, height: 8, rx: 1.5 }, g);
      svgEl("text", { class: "token-hp", x: 6, y: 7.9 }, g).textContent = u.hp;
      if (u.shield) use(text.shield, 3.5, -10, 6, g, "token-shield");
      if (u.atk > u.base_atk) use(text.aura, -9.5, -10, 6, g, "token-aura");
    });
    // Below the map the side whose miracle is at the bottom: the viewer's, or the first mover's.
    const bottom = data.seat === null ? view.first_mover : data.seat;
    const order = [1 - bottom, bottom];
    strips[0].replaceChildren(strip(view, order[0]));
    strips[1].replaceChildren(strip(view, order[1]));
  }

  function drawLog(index) {
    log.replaceChildren();
    let last = null;
    for (let f = 1; f <= index; f++) {
      frames[f].lines.forEach((line, e) => {
        if (!line) return;
        last = el("li", "replay-entry replay-entry--" + frames[f].events[e].type + (f === index ? " replay-entry--current" : ""), line);
        log.append(last);
      });
    }
    if (last) window.Replay.reveal(log, last);
  }

  function draw(index) {
    drawBoard(index);
    drawLog(index);
    const step = steps[index];
    const parts = [];
    if (step.turn === 0) parts.push(text.decks);
    else if (step.turn !== null) parts.push(text.turn + " " + step.turn + "/" + frames[index].view.last_turn);
    parts.push(text.command + " " + index + " " + text.of + " " + (frames.length - 1));
    position.textContent = parts.join(" · ");
  }

  window.Replay.controls(root, {
    count: frames.length,
    turnOf: (index) => steps[index].turn,
    draw: draw,
    interval: 700,
  });
})();
