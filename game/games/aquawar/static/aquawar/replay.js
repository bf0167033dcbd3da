// The replay viewer: steps through frames the server projected for one audience (json_script
// "replay-data"). It only draws what the frames hold; no fish is ever named here that a frame
// did not name, and every name goes in through textContent.
(function () {
  "use strict";
  const page = window.Replay.page();
  if (!page) return;
  const { root, data, frames, text, board, log, position } = page;
  const roundSelect = document.getElementById("replay-round");
  const ROUND_OVER = new Set(["round_end", "match_end"]);

  // One step per projected event; a command this audience saw nothing of still gets one step, so
  // the board moves on when the state does.
  const steps = [{ frame: 0, event: -1 }];
  for (let f = 1; f < frames.length; f++) {
    const count = frames[f].events.length;
    if (count === 0) steps.push({ frame: f, event: -1 });
    for (let e = 0; e < count; e++) steps.push({ frame: f, event: e });
  }
  // A step belongs to the turn (or pick phase) its command was played in: the state before it.
  for (const step of steps) {
    const before = frames[Math.max(step.frame - 1, 0)].view;
    step.round = before.round;
    step.turn = before.phase === "pick" ? null : before.turn + 1;
    step.key = step.frame === 0 ? "start" : before.round + ":" + (step.turn === null ? "pick" : step.turn);
  }

  // The marks on the board at each step, as the live board draws them after each move: what the
  // events of the step's command did so far; a command that did nothing to any fish (a skipped
  // assertion) leaves the last one's, until the round ends. `fresh`: the step's own, which flash in.
  let carried = [];
  let sofar = [];
  let current = -1;
  for (const step of steps) {
    if (step.frame !== current) {
      if (sofar.length) carried = sofar;
      sofar = [];
      current = step.frame;
    }
    step.fresh = [];
    if (step.event >= 0) {
      if (frames[step.frame].events[step.event].type === "round_start") carried = sofar = [];
      step.fresh = data.marks[step.frame][step.event] || [];
      sofar = sofar.concat(step.fresh);
    }
    step.marks = sofar.length ? sofar : carried;
  }

  function el(tag, className, content) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (content !== undefined) node.textContent = content;
    return node;
  }

  function focusOf(event) {
    if (!event) return null;
    if (event.type === "action") return [event.player, event.actor];
    if (event.type === "assert") return [1 - event.player, event.target];
    if ("side" in event && "pos" in event) return [event.side, event.pos];
    return null;
  }

  function markList(step, side, pos) {
    const own = step.marks.filter((mark) => mark[0] === side && mark[1] === pos).slice(0, data.max_marks);
    if (!own.length) return null;
    const list = el("span", "fish-marks");
    own.forEach((mark, order) => {
      const badge = el("span", "mark mark--" + mark[2], mark[3]);
      if (step.fresh.includes(mark)) badge.style.setProperty("--order", String(order));
      else badge.classList.add("mark--still");
      list.append(badge);
    });
    return list;
  }

  function fishCard(fish, side, pos, focus, step) {
    const item = el("li", "replay-fish");
    if (!fish.alive) item.classList.add("replay-fish--dead");
    if (focus && focus[0] === side && focus[1] === pos) item.classList.add("replay-fish--focus");
    const known = fish.fish ? data.species[fish.fish] : null;
    const picture = el("span", "replay-picture");
    const image = el("img", "replay-image");
    image.src = known ? known.image : data.hidden_image;
    image.alt = "";
    image.width = image.height = 48;
    picture.append(image);
    if (!fish.alive && data.dead_image) {
      const dead = el("img", "replay-dead");
      dead.src = data.dead_image;
      dead.alt = "";
      dead.width = dead.height = 48;
      picture.append(dead);
    }
    const body = el("div", "replay-body");
    const name = el("p", "replay-name");
    name.append(el("span", "replay-pos", "#" + (pos + 1)), " ", known ? known.name : text.hidden);
    if (fish.mimic_of && data.species[fish.mimic_of]) {
      name.append(" ", el("span", "replay-minor", text.copying + " " + data.species[fish.mimic_of].name));
    }
    if (!fish.alive) name.append(" ", el("span", "replay-minor", text.defeated));
    const marks = markList(step, side, pos);
    if (marks) {
      name.append(" ", marks);
      item.classList.add(marks.querySelector(".mark--act") ? "replay-fish--acted" : "replay-fish--marked");
    }
    const hp = Math.max(fish.hp, 0);
    const meter = el("div", "replay-hp");
    const bar = el("div", "replay-hp-bar");
    bar.style.width = Math.floor((hp * 100) / 400) + "%";
    meter.append(bar);
    let stats = text.hp + " " + hp + "/400";
    if (fish.atk !== null) stats += " · " + text.atk + " " + fish.atk;
    body.append(name, meter, el("p", "replay-stats", stats));
    item.append(picture, body);
    return item;
  }

  function drawBoard(step) {
    const frame = frames[step.frame];
    let view = frame.view;
    const event = step.event >= 0 ? frame.events[step.event] : null;
    board.replaceChildren();
    // The engine clears the board the moment a round ends; show the last board of that round.
    if (view.teams.every((team) => team.length === 0) && frame.events.some((e) => ROUND_OVER.has(e.type))) {
      for (let f = step.frame - 1; f >= 0; f--) {
        if (frames[f].view.teams.some((team) => team.length > 0)) {
          view = frames[f].view;
          board.append(el("p", "replay-note", text.roundOver));
          break;
        }
      }
    }
    const focus = focusOf(event);
    const order = data.audience === 0 || data.audience === 1 ? [1 - data.audience, data.audience] : [0, 1];
    for (const side of order) {
      const box = el("div", "replay-team replay-team--side-" + side);
      if (view.to_move === side) box.classList.add("replay-team--to-move");
      const title = el("h2", "replay-team-name", data.players[side] || "?");
      title.prepend(el("span", "team-icon", side === 0 ? "●" : "◆"), " ");
      title.append(" ", el("span", "replay-score", view.score[side] + " " + text.won));
      box.append(title);
      const team = view.teams[side];
      if (team.length) {
        const list = el("ol", "replay-fish-list");
        team.forEach((fish, pos) => list.append(fishCard(fish, side, pos, focus, step)));
        box.append(list);
      } else {
        box.append(el("p", "replay-minor", view.picked[side] ? text.picked : text.noTeam));
      }
      board.append(box);
    }
  }

  function drawLog(index) {
    log.replaceChildren();
    let last = null;
    for (let s = 1; s <= index; s++) {
      const step = steps[s];
      const line = step.event >= 0 ? frames[step.frame].lines[step.event] : "";
      if (!line) continue;
      last = el("li", "replay-entry replay-entry--" + frames[step.frame].events[step.event].type, line);
      log.append(last);
    }
    if (last && index > 0 && steps[index].event >= 0) {
      last.classList.add("replay-entry--current");
      window.Replay.reveal(log, last);
    }
  }

  function draw(index) {
    const step = steps[index];
    drawBoard(step);
    drawLog(index);
    const where = [text.round + " " + step.round];
    if (step.turn !== null) where.push(text.turn + " " + step.turn);
    else if (step.frame > 0) where.push(text.picking);
    where.push(text.step + " " + index + " " + text.of + " " + (steps.length - 1));
    position.textContent = where.join(" · ");
    roundSelect.value = String(step.round);
  }

  const show = window.Replay.controls(root, {
    count: steps.length,
    turnOf: (index) => steps[index].key,
    draw: draw,
    interval: 900,
    frameOf: (index) => steps[index].frame,
  });
  roundSelect.addEventListener("change", () => {
    const round = Number(roundSelect.value);
    const index = steps.findIndex((step) => step.frame > 0 && step.round === round);
    if (index >= 0) show(index);
  });
})();
