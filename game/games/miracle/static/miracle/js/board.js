// 神迹之战 match page: play by clicking the map or from the keyboard alone (a roving focus over the
// cells, arrows, Enter or Space), pan and zoom it (mapzoom.js), the End-turn confirmation, the deck
// chooser. Every click ends in one of the page's own forms (#match-controls), filled with a choice the
// server listed in #miracle-play (the engine's options): nothing here works out a rule. The server
// redraws board and forms after each command; the selection starts afresh, the zoom and the keyboard's
// cell are kept.
(function () {
  "use strict";

  var selection = null;
  // The keyboard's cell (the one cell the Tab key reaches) and whether it had the focus at the redraw.
  var cursor = null;
  var cursorHadFocus = false;
  // The End-turn confirmation is showing: E or its button once more ends the turn.
  var confirming = false;
  var ASK_KEY = "miracle.askBeforeEndTurn";
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
    box.classList.remove("board-tray--confirm");
    confirming = false;
    if (!parts) { box.hidden = true; return; }
    parts.forEach(function (part) { box.append(part); });
    box.hidden = false;
    announce(box.textContent);
  }

  // --- The tray's words are said in the page's one live region (#match-announcer, which the
  // platform's match.js also fills with each new log line), so nothing is heard twice.

  function announce(words) {
    var region = document.getElementById("match-announcer");
    if (!region || !words) return;
    var said = document.createElement("span");
    said.textContent = words + " ";
    region.appendChild(said);
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
    nameLit();
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
    var parts = [token ? token.querySelector("title").textContent + " — " : "", text("unitHint")];
    // Standing on a free spawn point of the player's: a summon there is the second, clear control.
    if (summonsAt(unit.at).length) {
      parts.push(" ", button(text("summonUnitHere"), function () { offerSummons(unit.at); focusTray(); }));
    }
    say(parts);
    nameLit();
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

  function offerSummons(key) {
    var found = summonsAt(key);
    if (!found.length) return false;
    cancel();
    light([key], "hex--selected");
    say([text("summonHere") + " "].concat(found.map(function (s) { return summonButton(s, key); })));
    again = function () { offerSummons(key); };
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
      nameLit();
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
    nameLit();
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
    // A creature of the player's that can act is selected at once, on a spawn point too (the summon
    // is then a button of the tray); the summons open on a free spawn point with nobody to act.
    var mine = unitId && options.units[unitId] ? unitId : actorAt(key);
    if (mine) { selectUnit(mine); return; }
    if (offerSummons(key)) return;
    cancel();
  }

  function actorAt(key) {
    var options = play();
    if (!options) return null;
    var ids = Object.keys(options.units).filter(function (id) { return options.units[id].at === key; });
    return ids.length ? ids[0] : null;
  }

  function nextUnit() {
    var options = play();
    if (!options) return;
    var ids = Object.keys(options.units);
    if (!ids.length) return;
    var at = selection && selection.kind === "unit" ? ids.indexOf(selection.unit) : -1;
    var id = ids[(at + 1) % ids.length];
    selectUnit(id);
    moveCursor(options.units[id].at, true);
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

  // --- The keyboard's cell: one cell takes the Tab key (a roving tabindex), arrows move it.

  function cellsOf() {
    return Array.prototype.map.call(hexes(), function (h) {
      return { key: h.dataset.cell, x: Number(h.getAttribute("x")), y: Number(h.getAttribute("y")) };
    });
  }

  // Up and down within the column; left and right to the next column's cell nearest in height.
  function neighbour(key, arrow) {
    var here = hexAt(key);
    if (!here) return null;
    var x = Number(here.getAttribute("x")), y = Number(here.getAttribute("y"));
    var best = null, bestScore = Infinity;
    cellsOf().forEach(function (c) {
      var dx = c.x - x, dy = c.y - y, score;
      if (arrow === "ArrowUp" || arrow === "ArrowDown") {
        if (Math.abs(dx) > 0.5 || (arrow === "ArrowUp" ? dy >= 0 : dy <= 0)) return;
        score = Math.abs(dy);
      } else {
        if (arrow === "ArrowLeft" ? dx >= -0.5 : dx <= 0.5) return;
        score = Math.abs(dx) * 10 + Math.abs(dy);
      }
      if (score < bestScore) { best = c.key; bestScore = score; }
    });
    return best;
  }

  function moveCursor(key, focus) {
    var hex = hexAt(key);
    if (!hex) return;
    hexes().forEach(function (h) { if (h !== hex) h.setAttribute("tabindex", "-1"); });
    hex.setAttribute("tabindex", "0");
    cursor = key;
    if (focus) {
      hex.focus({ preventScroll: true });
      zoom.show(Number(hex.getAttribute("x")), Number(hex.getAttribute("y")), 20);
    }
  }

  function showCursor(hex) {
    var mark = document.querySelector(".miracle-board .hex-cursor");
    if (!mark) return;
    if (!hex) { mark.setAttribute("visibility", "hidden"); return; }
    mark.setAttribute("x", hex.getAttribute("x"));
    mark.setAttribute("y", hex.getAttribute("y"));
    mark.setAttribute("visibility", "visible");
  }

  // The cell the Tab key reaches when nothing was chosen: the first creature that can act, else the
  // viewer's own miracle (the bottom one), else the middle of the map.
  function firstCursor() {
    var options = play();
    var ids = options ? Object.keys(options.units) : [];
    if (ids.length) return options.units[ids[0]].at;
    var own = document.querySelector(".miracle-board .side-strip[data-side]:last-of-type");
    var miracle = own && document.querySelector('.miracle-board .miracle--' + (own.classList.contains("side-strip--a") ? "a" : "b"));
    return miracle ? miracle.dataset.cell : "0,0,0";
  }

  // What a lit cell would do, added to its name (the names come from the server without it).
  var ACTS = { "hex--reach": "actMove", "hex--target": "actAttack", "hex--place": "actPlace" };

  function nameLit() {
    hexes().forEach(function (h) {
      if (h.dataset.label === undefined) h.dataset.label = h.getAttribute("aria-label");
      var act = null;
      for (var cls in ACTS) if (h.classList.contains(cls)) act = text(ACTS[cls]);
      h.setAttribute("aria-label", act ? h.dataset.label + " — " + act : h.dataset.label);
    });
  }

  function focusTray() {
    var first = tray() && tray().querySelector("button");
    if (first) first.focus();
  }

  function onCellKey(event) {
    var hex = event.target.closest && event.target.closest(".miracle-board .hex[data-cell]");
    if (!hex) return false;
    var key = event.key;
    if (key.indexOf("Arrow") === 0) {
      var next = neighbour(hex.dataset.cell, key);
      if (next) moveCursor(next, true);
      return true;
    }
    if (key === "Enter" || key === " ") {
      var before = selection;
      clickCell(hex.dataset.cell, null);
      // The next step: the summon choices, else stay on the map to pick the destination.
      if (!tray().hidden && selection === null && before === null) focusTray();
      return true;
    }
    return false;
  }

  // --- End turn: asks first while a creature could still act or mana could still buy something.

  function askBeforeEnd() {
    try { return window.localStorage.getItem(ASK_KEY) !== "no"; } catch (e) { return true; }
  }

  function setAsk(ask) {
    try { window.localStorage.setItem(ASK_KEY, ask ? "yes" : "no"); } catch (e) { /* private mode: asks again */ }
    var box = document.getElementById("end-turn-ask");
    if (box) box.checked = ask;
  }

  function leftToDo() {
    var options = play();
    if (!options) return null;
    var units = Object.keys(options.units).length;
    var spend = options.summons.length || options.artifact ? options.mana : 0;
    return units || spend ? { units: units, mana: spend } : null;
  }

  var ending = false;

  function endTurn() {
    var form = document.getElementById("end-turn-form");
    if (!form) return;
    ending = true;
    cancel();
    form.requestSubmit();
    ending = false;
  }

  function confirmEnd() {
    var left = leftToDo();
    var parts = [];
    if (left.units) parts.push(left.units + " " + text("confirmUnits"));
    if (left.mana) parts.push(left.mana + " " + text("confirmMana"));
    cancel();
    say([parts.join(", ") + ". " + text("confirmAsk") + " ",
      button(text("confirmYes"), endTurn),
      button(text("confirmNo"), function () { cancel(); moveCursor(cursor || firstCursor(), true); }),
      button(text("confirmNever"), function () { setAsk(false); endTurn(); })]);
    confirming = true;
    tray().classList.add("board-tray--confirm");
    focusTray();
  }

  // Before htmx's own listener (the capture phase): the form is sent only once confirmed.
  function onSubmit(event) {
    // (Not ``form.id``: the form's field named "id" shadows it.)
    if (!event.target.matches("#end-turn-form") || ending) return;
    if (confirming || !askBeforeEnd() || !leftToDo()) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    confirmEnd();
  }

  // --- Wiring

  var zoom = window.MiracleZoom(".miracle-board", {
    tap: function (target) {
      var token = target.closest(".token");
      var place = token || target.closest(".miracle") || target.closest(".hex[data-cell]");
      if (place) clickCell(place.dataset.cell, token ? token.dataset.unit : null);
    },
    hover: function (target) {
      var place = target.closest(".miracle-board [data-cell]");
      if (place) previewArea(place.dataset.cell);
    },
  });

  var drawn = null;
  var drawnVersion = null;

  function refresh() {
    var map = zoom.svg();
    var status = document.getElementById("match-status");
    var version = status ? status.dataset.version : null;
    if (map !== drawn) {
      drawn = map;
      if (version === drawnVersion && again) again();
      else { selection = null; again = null; }
      if (map) {
        // A redraw after a move: the keyboard's cell stays where it was (the creature's new cell
        // when it moved there), focused again if it had the focus.
        moveCursor(cursor && hexAt(cursor) ? cursor : firstCursor(), cursorHadFocus);
        nameLit();
      }
    }
    drawnVersion = version;
    zoom.keep();
    var ask = document.getElementById("end-turn-ask");
    if (ask) ask.checked = askBeforeEnd();
    limitDeck();
  }

  document.addEventListener("change", function (event) {
    if (event.target.classList.contains("deck-check")) limitDeck();
    if (event.target.id === "end-turn-ask") setAsk(event.target.checked);
  });
  document.addEventListener("submit", onSubmit, true);
  document.addEventListener("click", function (event) {
    var card = event.target.closest(".miracle-board .card--mine");
    if (card) chooseCard(card.dataset.card);
  });
  document.addEventListener("focusin", function (event) {
    var hex = event.target.closest && event.target.closest(".miracle-board .hex[data-cell]");
    if (hex && hex.dataset.cell !== cursor) moveCursor(hex.dataset.cell, false);
    // Drawn for the keyboard's focus only, not where a click left it.
    showCursor(hex && hex.matches(":focus-visible") ? hex : null);
    cursorHadFocus = !!hex;
  });
  document.addEventListener("focusout", function (event) {
    if (event.target.closest && event.target.closest(".miracle-board .hex[data-cell]")) showCursor(null);
  });
  // A redraw takes the focused cell away: remember whether the map had the focus just before.
  document.addEventListener("htmx:wsBeforeMessage", function () {
    var active = document.activeElement;
    cursorHadFocus = !!(active && active.closest && active.closest(".miracle-board .hex[data-cell]"));
  });
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (!zoom.svg()) return;
    if (onCellKey(event)) { event.preventDefault(); return; }
    // Enter and Space on a button (the tray's, the cards) are the button's own.
    if (event.target.closest && event.target.closest("button") && (event.key === "Enter" || event.key === " ")) return;
    var key = event.key;
    if (key === "Escape") { cancel(); if (cursor) moveCursor(cursor, true); }
    else if (key === "e" || key === "E") {
      if (confirming) endTurn();
      else { var end = document.getElementById("end-turn-form"); if (end) end.requestSubmit(); }
    }
    else if (key === "n" || key === "N") nextUnit();
    else zoom.key(key);
  });
  document.addEventListener("htmx:wsAfterMessage", refresh);
  document.addEventListener("DOMContentLoaded", refresh);
  window.addEventListener("load", refresh);
})();
