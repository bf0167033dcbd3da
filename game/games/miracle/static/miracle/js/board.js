// 神迹之战 match page: play by clicking the map, pan and zoom it, keyboard shortcuts, the deck chooser.
// Every click ends in one of the page's own forms (#match-controls), filled with a choice the server
// listed in #miracle-play (the engine's options): nothing here works out a rule. The server redraws
// board and forms after each command; the selection starts afresh, the zoom is kept.
(function () {
  "use strict";

  var selection = null;
  // Makes the player's current choice again on a board redrawn without a new move (a spectator
  // arriving, a chat line): the lights and the tray are part of the redrawn fragment.
  var again = null;
  var viewBox = null;
  var tray = function () { return document.getElementById("board-tray"); };

  function play() {
    var node = document.getElementById("miracle-play");
    return node ? JSON.parse(node.textContent) : null;
  }

  function svg() { return document.querySelector(".miracle-board .hexmap"); }

  function hexes() { return document.querySelectorAll(".miracle-board .hex[data-cell]"); }

  function hexAt(key) { return document.querySelector('.miracle-board .hex[data-cell="' + key + '"]'); }

  function cube(key) { return key.split(",").map(Number); }

  function distance(a, b) {
    var p = cube(a), q = cube(b);
    return (Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2])) / 2;
  }

  function text(name) {
    var board = document.querySelector(".miracle-board");
    return board ? board.dataset[name] || "" : "";
  }

  // --- Highlights

  var LIT = ["hex--reach", "hex--target", "hex--place", "hex--area", "hex--selected"];

  function clearLights() {
    hexes().forEach(function (h) { LIT.forEach(function (c) { h.classList.remove(c); }); });
    document.querySelectorAll(".token--selected").forEach(function (t) { t.classList.remove("token--selected"); });
    document.querySelectorAll(".card--selected").forEach(function (c) { c.classList.remove("card--selected"); });
  }

  function light(keys, kind) {
    keys.forEach(function (key) { var h = hexAt(key); if (h) h.classList.add(kind); });
  }

  function say(parts) {
    var box = tray();
    if (!box) return;
    box.replaceChildren();
    if (!parts) { box.hidden = true; return; }
    parts.forEach(function (part) { box.append(part); });
    box.hidden = false;
  }

  function button(label, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "button button--small";
    b.textContent = label;
    b.addEventListener("click", onClick);
    return b;
  }

  function cancel() {
    selection = null;
    again = null;
    clearLights();
    say(null);
  }

  // --- Submitting through the page's forms

  function submit(selector, fields) {
    var form = document.querySelector("#match-controls " + selector);
    if (!form) return false;
    for (var name in fields) {
      var field = form.elements[name];
      if (!field) return false;
      field.value = fields[name];
      if (field.value !== fields[name]) return false;
    }
    cancel();
    form.requestSubmit();
    return true;
  }

  // --- Choosing

  function selectUnit(id) {
    var options = play();
    var unit = options && options.units[id];
    if (!unit) return;
    cancel();
    selection = { kind: "unit", unit: id, options: unit };
    again = function () { selectUnit(id); };
    var token = document.querySelector('.miracle-board .token[data-unit="' + id + '"]');
    if (token) token.classList.add("token--selected");
    light([unit.at], "hex--selected");
    light(unit.moves, "hex--reach");
    light(Object.keys(unit.attacks), "hex--target");
    say([token ? token.querySelector("title").textContent + " — " : "", text("unitHint")]);
  }

  function summonsAt(key) {
    var options = play();
    return options ? options.summons.filter(function (s) { return s.cells.indexOf(key) >= 0; }) : [];
  }

  function summonButton(s, key) {
    return button(s.name + " L" + s.level + " · " + s.cost + " " + text("mana") + " · " + s.ready + " " + text("ready"), function () {
      submit('.summon-form[data-type="' + s.type + '"]', { level: String(s.level), at: key });
    });
  }

  // ``unitId``: a creature of the player's that could act stands there too (a flyer over a spawn
  // point): it is offered first, beside the summons.
  function offerSummons(key, unitId) {
    var found = summonsAt(key);
    if (!found.length) return false;
    cancel();
    light([key], "hex--selected");
    var parts = [text("summonHere") + " "].concat(found.map(function (s) { return summonButton(s, key); }));
    if (unitId) parts.unshift(button(text("selectUnit"), function () { selectUnit(unitId); }));
    say(parts);
    again = function () { offerSummons(key, unitId); };
    return true;
  }

  // The opponent's strip may hold a card of the same type: only the viewer's own are rung.
  function ownCard(type) {
    return document.querySelector('.miracle-board .card--mine[data-card="' + type + '"]');
  }

  function chooseCard(type) {
    var options = play();
    if (!options) return;
    var card = ownCard(type);
    if (type === "artifact") {
      if (!options.artifact) { say([text("artifactNotNow")]); return; }
      cancel();
      selection = { kind: "artifact", options: options.artifact };
      again = function () { chooseCard(type); };
      if (card) card.classList.add("card--selected");
      light(options.artifact.cells.concat(Object.keys(options.artifact.units)), "hex--place");
      say([text("artifactHint")]);
      return;
    }
    var levels = options.summons.filter(function (s) { return s.type === type; });
    cancel();
    if (card) card.classList.add("card--selected");
    if (!levels.length) { say([text("summonNotNow")]); return; }
    again = function () { chooseCard(type); };
    say([text("chooseLevel") + " "].concat(levels.map(function (s) {
      return button("L" + s.level + " · " + s.cost + " " + text("mana") + " · " + s.ready + " " + text("ready"), function () {
        chooseLevel(type, s.level);
      });
    })));
  }

  function chooseLevel(type, level) {
    var options = play();
    var s = options && options.summons.filter(function (x) { return x.type === type && x.level === level; })[0];
    if (!s) { cancel(); return; }
    var card = ownCard(type);
    selection = { kind: "summon", summon: s };
    again = function () { cancel(); chooseLevel(type, level); };
    clearLights();
    if (card) card.classList.add("card--selected");
    light(s.cells, "hex--place");
    say([text("placeHint")]);
  }

  function previewArea(key) {
    hexes().forEach(function (h) { h.classList.remove("hex--area"); });
    if (!selection || selection.kind !== "artifact" || selection.options.cells.indexOf(key) < 0) return;
    var radius = selection.options.radius;
    hexes().forEach(function (h) {
      if (distance(h.dataset.cell, key) <= radius) h.classList.add("hex--area");
    });
  }

  function clickCell(key, unitId) {
    var options = play();
    if (!options) return;
    if (selection && selection.kind === "unit") {
      var unit = selection.options;
      if (unit.attacks[key] !== undefined) {
        submit('.move-form--attack[data-unit="' + selection.unit + '"]', { target: unit.attacks[key] });
        return;
      }
      if (unit.moves.indexOf(key) >= 0) {
        submit('.move-form--move[data-unit="' + selection.unit + '"]', { to: key });
        return;
      }
    }
    if (selection && selection.kind === "summon" && selection.summon.cells.indexOf(key) >= 0) {
      var s = selection.summon;
      submit('.summon-form[data-type="' + s.type + '"]', { level: String(s.level), at: key });
      return;
    }
    if (selection && selection.kind === "artifact") {
      var art = selection.options;
      if (art.units[key] !== undefined) { submit(".artifact-form", { unit: art.units[key] }); return; }
      if (art.cells.indexOf(key) >= 0) { submit(".artifact-form", { at: key }); return; }
    }
    var mine = unitId && options.units[unitId] ? unitId : null;
    if (offerSummons(key, mine)) return;
    if (mine) { selectUnit(mine); return; }
    cancel();
  }

  function nextUnit() {
    var options = play();
    if (!options) return;
    var ids = Object.keys(options.units);
    if (!ids.length) return;
    var at = selection && selection.kind === "unit" ? ids.indexOf(selection.unit) : -1;
    selectUnit(ids[(at + 1) % ids.length]);
  }

  // --- Pan and zoom: the SVG's viewBox, by wheel, drag, pinch, buttons and keys.

  function box() {
    var b = svg().getAttribute("viewBox").split(" ").map(Number);
    return { x: b[0], y: b[1], w: b[2], h: b[3] };
  }

  function full() {
    var b = svg().dataset.viewBox.split(" ").map(Number);
    return { x: b[0], y: b[1], w: b[2], h: b[3] };
  }

  function clamp(value, low, high) { return Math.min(high, Math.max(low, value)); }

  // The window onto the map has the shape of the map's box: square on a phone (miracle.css, the same
  // width), elsewhere the map's own; whatever is larger than the map is centred on it.
  var PHONE = window.matchMedia("(max-width: 40rem)");

  function shape() {
    var whole = full();
    return PHONE.matches ? 1 : whole.h / whole.w;
  }

  function setBox(b) {
    var whole = full();
    var ratio = shape();
    var w = Math.min(Math.max(whole.w, whole.h / ratio), Math.max(whole.w / 6, b.w));
    var h = w * ratio;
    var cx = isFinite(b.w) ? b.x + b.w / 2 : 0, cy = isFinite(b.h) ? b.y + b.h / 2 : 0;
    var x = w >= whole.w ? whole.x + (whole.w - w) / 2 : clamp(cx - w / 2, whole.x, whole.x + whole.w - w);
    var y = h >= whole.h ? whole.y + (whole.h - h) / 2 : clamp(cy - h / 2, whole.y, whole.y + whole.h - h);
    viewBox = [x, y, w, h].map(function (v) { return v.toFixed(2); }).join(" ");
    svg().setAttribute("viewBox", viewBox);
  }

  // The view before any zoom: on a narrow screen the map at the height of its box (both miracles in
  // view, bigger cells), else the whole map. Not kept as the player's zoom: a resize starts it again.
  function startView() {
    var whole = full();
    if (PHONE.matches) setBox({ x: whole.x + (whole.w - whole.h) / 2, y: whole.y, w: whole.h, h: whole.h });
    else wholeView();
    viewBox = null;
  }

  function wholeView() {
    var whole = full();
    setBox({ x: whole.x, y: whole.y, w: Infinity, h: Infinity });
    viewBox = null;
  }

  function zoom(factor, cx, cy) {
    var b = box();
    if (cx === undefined) { cx = b.x + b.w / 2; cy = b.y + b.h / 2; }
    setBox({ x: cx - (cx - b.x) / factor, y: cy - (cy - b.y) / factor, w: b.w / factor, h: b.h / factor });
  }

  function toMap(clientX, clientY) {
    var rect = svg().getBoundingClientRect();
    var b = box();
    return { x: b.x + (clientX - rect.left) / rect.width * b.w, y: b.y + (clientY - rect.top) / rect.height * b.h };
  }

  var pointers = {};
  var drag = null;

  function onPointerDown(event) {
    if (!event.target.closest(".hexmap")) return;
    pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
    drag = { moved: 0, pinch: null };
  }

  function onPointerMove(event) {
    var last = pointers[event.pointerId];
    if (!last || !drag) {
      var place = event.target.closest && event.target.closest(".miracle-board [data-cell]");
      if (place) previewArea(place.dataset.cell);
      return;
    }
    var ids = Object.keys(pointers);
    var rect = svg().getBoundingClientRect();
    var b = box();
    if (ids.length === 2) {
      var other = pointers[ids[0] == event.pointerId ? ids[1] : ids[0]];
      var before = Math.hypot(last.x - other.x, last.y - other.y);
      var after = Math.hypot(event.clientX - other.x, event.clientY - other.y);
      if (before > 0) {
        var mid = toMap((event.clientX + other.x) / 2, (event.clientY + other.y) / 2);
        zoom(after / before, mid.x, mid.y);
      }
      drag.moved += 10;
    } else {
      var dx = event.clientX - last.x, dy = event.clientY - last.y;
      drag.moved += Math.abs(dx) + Math.abs(dy);
      if (drag.moved > 6) setBox({ x: b.x - dx / rect.width * b.w, y: b.y - dy / rect.height * b.h, w: b.w, h: b.h });
    }
    pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
  }

  function onPointerUp(event) {
    if (!pointers[event.pointerId]) return;
    delete pointers[event.pointerId];
    var wasDrag = drag && drag.moved > 6;
    if (!Object.keys(pointers).length) drag = null;
    if (wasDrag) return;
    var target = event.target;
    var token = target.closest(".token");
    var place = token || target.closest(".miracle") || target.closest(".hex[data-cell]");
    if (place) clickCell(place.dataset.cell, token ? token.dataset.unit : null);
  }

  function onWheel(event) {
    if (!event.target.closest(".hexmap")) return;
    event.preventDefault();
    var at = toMap(event.clientX, event.clientY);
    zoom(event.deltaY < 0 ? 1.2 : 1 / 1.2, at.x, at.y);
  }

  // --- Deck chooser: no more creature types than the rules allow.

  function limitDeck() {
    var form = document.querySelector(".deck-form");
    if (!form) return;
    var count = Number(form.dataset.count);
    var boxes = form.querySelectorAll(".deck-check");
    var ticked = Array.prototype.filter.call(boxes, function (b) { return b.checked; }).length;
    boxes.forEach(function (b) { b.disabled = !b.checked && ticked >= count; });
    form.querySelector("button[type=submit]").disabled = ticked !== count;
  }

  // --- Wiring

  var drawn = null;
  var drawnVersion = null;

  function refresh() {
    var map = svg();
    var status = document.getElementById("match-status");
    var version = status ? status.dataset.version : null;
    if (map !== drawn) {
      drawn = map;
      if (version === drawnVersion && again) again();
      else { selection = null; again = null; }
    }
    drawnVersion = version;
    if (map && viewBox) map.setAttribute("viewBox", viewBox);
    else if (map) startView();
    limitDeck();
  }

  document.addEventListener("pointerdown", onPointerDown);
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", onPointerUp);
  document.addEventListener("pointercancel", function (event) { delete pointers[event.pointerId]; drag = null; });
  document.addEventListener("wheel", onWheel, { passive: false });
  document.addEventListener("change", function (event) {
    if (event.target.classList.contains("deck-check")) limitDeck();
  });
  document.addEventListener("click", function (event) {
    var card = event.target.closest(".miracle-board .card--mine");
    if (card) { chooseCard(card.dataset.card); return; }
    var z = event.target.closest(".zoom-buttons [data-zoom]");
    if (z) {
      if (z.dataset.zoom === "reset") wholeView();
      else zoom(z.dataset.zoom === "in" ? 1.4 : 1 / 1.4);
    }
  });
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (!svg()) return;
    var key = event.key;
    if (key === "Escape") cancel();
    else if (key === "e" || key === "E") { var end = document.getElementById("end-turn-form"); if (end) end.requestSubmit(); }
    else if (key === "n" || key === "N") nextUnit();
    else if (key === "+" || key === "=") zoom(1.4);
    else if (key === "-") zoom(1 / 1.4);
    else if (key === "0") wholeView();
  });
  window.addEventListener("resize", function () {
    if (!svg()) return;
    if (viewBox) setBox(box());
    else startView();
  });
  document.addEventListener("htmx:wsAfterMessage", refresh);
  document.addEventListener("DOMContentLoaded", refresh);
  window.addEventListener("load", refresh);
})();
