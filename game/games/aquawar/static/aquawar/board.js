// Playing on the board: click (or press the number of) one of your fish, then its target; name a
// hidden enemy by clicking it. Every move offered is one of the move list's (the act forms' radios,
// the assert form's options), which the server wrote from the engine's legal commands: nothing here
// works out what is legal. A move is sent by submitting that same form, so it travels as before.
(function () {
  "use strict";

  var KINDS = { a: "attack", k: "skill" };
  // What is being chosen: {panel, actor, kind, ally, enemy, pending, target, species}.
  var choice = null;
  // Whether the player's last input was a key: only then does a redraw that took the focus away
  // give it to the next step's first control (a pointer user's page should not scroll by itself).
  var viaKeys = false;

  function panel() { return document.querySelector("[data-board-play]"); }
  function text(name) { return choice.panel.dataset["text" + name]; }
  function all(selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); }
  function side(own) { return document.querySelector(own ? ".team--own" : ".team:not(.team--own)"); }
  function fishAt(own, pos) {
    var team = side(own);
    return team && team.querySelector('.fish[data-pos="' + pos + '"]');
  }

  function legalActs() {
    return all(".act-form input[name=move]").map(function (radio) {
      return { act: JSON.parse(radio.value), radio: radio };
    });
  }

  function assertTargets() {
    return all(".assert-form select[name=target] option").map(function (o) { return Number(o.value); });
  }

  // ---- Drawing the choice on the board ----

  function clearMarks() {
    all(".fish--choice, .fish--chosen, .fish--actor").forEach(function (fish) {
      fish.classList.remove("fish--choice", "fish--chosen", "fish--actor");
      var picture = fish.querySelector(".fish-picture");
      ["tabindex", "role", "aria-label", "aria-describedby"].forEach(function (name) { picture.removeAttribute(name); });
    });
    all(".fish-menu").forEach(function (menu) { menu.remove(); });
  }

  // A fish that can be chosen is a button named in words ("#2 Sea Wolf, HP 300/400") and described
  // by the prompt. The button is its picture, not the whole card: the card holds buttons of its own
  // (the skills' toggle, the menu), and a button may not hold other controls.
  function light(own, positions) {
    positions.forEach(function (pos) {
      var fish = fishAt(own, pos);
      if (!fish) return;
      fish.classList.add("fish--choice");
      var picture = fish.querySelector(".fish-picture");
      var hp = fish.querySelector(".hp");
      picture.tabIndex = 0;
      picture.setAttribute("role", "button");
      picture.setAttribute("aria-label", fish.dataset.label + ", " + hp.getAttribute("aria-label") + " " + hp.textContent.trim());
      picture.setAttribute("aria-describedby", "board-play-prompt");
    });
  }

  function lit(own) {
    var team = side(own);
    return team && team.querySelector(".fish--choice .fish-picture");
  }

  function focusLost() {
    var active = document.activeElement;
    return !active || active === document.body || !document.contains(active);
  }

  // The first control of the step the player is at, given the focus (after a choice, or after a
  // redraw of the board took away the control that had it).
  function focusStep() {
    var target = null;
    if (!choice) {
      var controls = document.getElementById("match-controls");
      if (!controls) return;
      target = controls.querySelector(".pick-check:not(:disabled), button:not(:disabled), select");
      if (!target) {
        controls.tabIndex = -1;
        target = controls;
      }
    } else if (choice.panel.dataset.boardPlay === "assert") {
      if (choice.target === null) target = lit(false) || document.querySelector(".skip-form button");
      else if (choice.species === null) target = choice.panel.querySelector(".assert-species");
      else target = choice.panel.querySelector(".assert-confirm");
    } else if (choice.actor === null) {
      target = lit(true);
    } else if (choice.pending !== null) {
      target = fishAt(stage() === "ally", choice.pending).querySelector(".fish-picture");
    } else {
      var next = stage();
      target = next === null ? document.querySelector(".fish-menu__use") : lit(next === "ally");
    }
    if (target) target.focus();
  }

  function prompt(words) {
    choice.panel.querySelector(".board-play__prompt").textContent = words;
  }

  function unique(values) {
    return values.filter(function (v, i) { return v !== undefined && values.indexOf(v) === i; });
  }

  // The moves of the chosen fish and kind that agree with what has been chosen so far.
  function candidates() {
    return legalActs().filter(function (m) {
      return m.act.actor === choice.actor && m.act.kind === choice.kind &&
        (choice.ally === null || m.act.ally === choice.ally);
    });
  }

  // Which target the chosen kind still needs: "ally", "enemy" or null (none: confirm it).
  function stage() {
    var moves = candidates();
    if (choice.ally === null && moves.some(function (m) { return "ally" in m.act; })) return "ally";
    if (choice.enemy === null && moves.some(function (m) { return "enemy" in m.act; })) return "enemy";
    return null;
  }

  function menuButton(label, key, onClick, pressed) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "button button--small" + (pressed ? "" : " button--quiet");
    b.textContent = label;
    if (key) {
      var hint = document.createElement("kbd");
      hint.className = "key-hint";
      hint.setAttribute("aria-hidden", "true");
      hint.textContent = key;
      b.appendChild(hint);
    }
    if (pressed !== undefined) b.setAttribute("aria-pressed", String(pressed));
    b.addEventListener("click", function (event) {
      event.stopPropagation();
      onClick();
    });
    return b;
  }

  function drawAct() {
    clearMarks();
    if (choice.actor === null) {
      prompt(text("Actor"));
      light(true, unique(legalActs().map(function (m) { return m.act.actor; })));
      return;
    }
    var actor = fishAt(true, choice.actor);
    actor.classList.add("fish--actor");
    var menu = document.createElement("div");
    menu.className = "fish-menu";
    var kinds = unique(legalActs().filter(function (m) { return m.act.actor === choice.actor; })
      .map(function (m) { return m.act.kind; }));
    kinds.forEach(function (kind) {
      var key = kind === "attack" ? "A" : "K";
      var b = menuButton(text(kind === "attack" ? "Attack" : "Skill"), key, function () { pickKind(kind); },
        choice.kind === kind);
      b.dataset.kind = kind;
      menu.appendChild(b);
    });
    var next = stage();
    if (next === null) menu.appendChild(menuButton(text("Use"), "Enter", send)).classList.add("fish-menu__use");
    menu.appendChild(menuButton("✕", "Esc", cancel)).classList.add("fish-menu__cancel");
    menu.lastChild.setAttribute("aria-label", text("Cancel"));
    actor.querySelector(".fish-body").appendChild(menu);
    var moves = candidates();
    var twoSteps = moves.some(function (m) { return "ally" in m.act; }) && moves.some(function (m) { return "enemy" in m.act; });
    if (next === "ally") {
      prompt(text(twoSteps ? "AllyStep" : "Ally"));
      light(true, unique(moves.map(function (m) { return m.act.ally; })));
    } else if (next === "enemy") {
      prompt(text(twoSteps ? "EnemyStep" : "Enemy"));
      light(false, unique(moves.map(function (m) { return m.act.enemy; })));
      if (choice.ally !== null) fishAt(true, choice.ally).classList.add("fish--chosen");
    } else {
      prompt(text("NoTarget"));
    }
    if (choice.pending !== null) {
      var pending = fishAt(next === "ally", choice.pending);
      if (pending) pending.classList.add("fish--chosen");
      prompt(text("ConfirmTarget"));
    }
  }

  function drawAssert() {
    clearMarks();
    var pick = choice.panel.querySelector(".assert-pick");
    if (!pick) {
      prompt(text("NoHidden"));
      return;
    }
    if (choice.target === null) {
      prompt(text("Assert"));
      pick.hidden = true;
      light(false, assertTargets());
      return;
    }
    fishAt(false, choice.target).classList.add("fish--chosen");
    prompt("");
    pick.hidden = false;
    pick.querySelector(".assert-pick__title").textContent =
      choice.panel.querySelector(".assert-title").dataset.text.replace("{pos}", choice.target + 1);
    all(".assert-species", pick).forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.species === choice.species));
    });
    pick.querySelector(".assert-confirm").disabled = choice.species === null;
  }

  function draw() {
    var refocus = viaKeys && (focusLost() || Boolean(document.activeElement.closest("#match-board, .fish-menu")));
    if (choice.panel.dataset.boardPlay === "assert") drawAssert();
    else drawAct();
    if (refocus) focusStep();
  }

  // ---- Choosing ----

  function pickKind(kind) {
    if (!legalActs().some(function (m) { return m.act.actor === choice.actor && m.act.kind === kind; })) return;
    choice.kind = kind;
    choice.ally = choice.enemy = choice.pending = null;
    draw();
  }

  function pickFish(own, pos, confirmNow) {
    var fish = fishAt(own, pos);
    if (!fish || !fish.classList.contains("fish--choice")) {
      if (fish && fish.classList.contains("fish--chosen") && choice.pending === pos) send();
      // Another of the player's fish that may act: it becomes the one acting.
      var acting = own && choice.panel.dataset.boardPlay === "act" && choice.actor !== null && pos !== choice.actor &&
        stage() !== "ally" && legalActs().some(function (m) { return m.act.actor === pos; });
      if (acting) {
        choice = fresh(choice.panel);
        draw();
        pickFish(true, pos, confirmNow);
      }
      return;
    }
    if (choice.panel.dataset.boardPlay === "assert") {
      choice.target = pos;
      choice.species = null;
      draw();
      orderSpecies();
      var first = choice.panel.querySelector(".assert-species");
      if (first) first.focus();
      return;
    }
    if (choice.actor === null) {
      choice.actor = pos;
      var kinds = legalActs().filter(function (m) { return m.act.actor === pos; }).map(function (m) { return m.act.kind; });
      choice.kind = kinds.indexOf("attack") >= 0 ? "attack" : kinds[0];
      choice.ally = choice.enemy = choice.pending = null;
      draw();
      return;
    }
    var next = stage();
    var last = next === "enemy" || !candidates().some(function (m) { return "enemy" in m.act; });
    if (last && !confirmNow) {
      // A number key only points at the target: Enter (or a click) sends it.
      choice.pending = pos;
      draw();
      return;
    }
    choice[next] = pos;
    choice.pending = null;
    if (stage() === null) send();
    else draw();
  }

  function cancel() {
    var keep = choice.panel;
    choice = fresh(keep);
    draw();
  }

  function fresh(p) {
    return { panel: p, actor: null, kind: null, ally: null, enemy: null, pending: null, target: null, species: null };
  }

  function submit(form) {
    clearMarks();
    prompt("");
    form.requestSubmit();
  }

  function send() {
    if (choice.panel.dataset.boardPlay === "assert") {
      if (choice.target === null || choice.species === null) return;
      var form = document.querySelector(".assert-form");
      form.querySelector("select[name=target]").value = String(choice.target);
      form.querySelector("select[name=fish]").value = choice.species;
      submit(form);
      return;
    }
    if (choice.pending !== null) {
      var next = stage();
      choice[next] = choice.pending;
      choice.pending = null;
    }
    var move = candidates().find(function (m) {
      return (m.act.ally === undefined ? null : m.act.ally) === choice.ally &&
        (m.act.enemy === undefined ? null : m.act.enemy) === choice.enemy;
    });
    if (!move) return;
    move.radio.checked = true;
    submit(move.radio.form);
  }

  // The deduction aid's candidates first, marked; the rest after them, still there to choose.
  function orderSpecies() {
    var grid = choice.panel.querySelector(".assert-grid");
    var target = choice.target;
    var aid = window.AquawarAid;
    if (!grid || !aid) return;
    aid.candidates().then(function (found) {
      if (!choice || choice.target !== target) return;
      var likely = found[target] || [];
      var items = all("li", grid);
      items.forEach(function (item) {
        item.querySelector(".assert-species").classList.toggle("assert-species--likely",
          likely.indexOf(item.querySelector(".assert-species").dataset.species) >= 0);
      });
      items.sort(function (x, y) {
        return Number(!x.querySelector(".assert-species--likely")) - Number(!y.querySelector(".assert-species--likely"));
      });
      var focused = document.activeElement;
      items.forEach(function (item) { grid.appendChild(item); });
      if (focused && grid.contains(focused)) grid.querySelector(".assert-species").focus();
    });
  }

  // ---- Events ----

  function setup() {
    var p = panel();
    if (!p) {
      choice = null;
      if (viaKeys && focusLost()) focusStep();
      return;
    }
    if (!choice || choice.panel !== p) {
      choice = fresh(p);
      p.hidden = false;
      var list = document.querySelector("[data-move-list]");
      if (list) list.hidden = true;
      p.querySelector(".board-play__toggle").addEventListener("click", function () {
        list.hidden = !list.hidden;
        this.textContent = list.hidden ? p.dataset.textListShow : p.dataset.textListHide;
      });
      all(".assert-species", p).forEach(function (b) {
        b.addEventListener("click", function () {
          choice.species = b.dataset.species;
          draw();
          p.querySelector(".assert-confirm").focus();
        });
      });
      var confirm = p.querySelector(".assert-confirm");
      if (confirm) confirm.addEventListener("click", send);
      all(".board-play__cancel", p).forEach(function (b) { b.addEventListener("click", cancel); });
    }
    draw();
  }

  document.addEventListener("keydown", function () { viaKeys = true; }, true);
  document.addEventListener("pointerdown", function () { viaKeys = false; }, true);

  // The move is whole: nothing more to choose but to send it.
  function complete() {
    if (choice.panel.dataset.boardPlay === "assert") return choice.target !== null && choice.species !== null;
    return choice.actor !== null && (choice.pending !== null || stage() === null);
  }

  document.addEventListener("click", function (event) {
    if (!choice) return;
    var fish = event.target.closest(".fish");
    if (fish && !event.target.closest("a, button, summary, details[open] > *")) {
      var own = Boolean(fish.closest(".team--own"));
      if (own || fish.classList.contains("fish--choice") || fish.classList.contains("fish--chosen")) {
        pickFish(own, Number(fish.dataset.pos), true);
        return;
      }
    }
    // A click anywhere else (but on the controls or a fish's own buttons) lets the choice go.
    if (!event.target.closest("[data-board-play], .fish-menu, [data-move-list], .skip-form, .fish") &&
      (choice.actor !== null || choice.target !== null)) {
      cancel();
    }
  });

  document.addEventListener("keydown", function (event) {
    if (!choice || event.altKey || event.ctrlKey || event.metaKey) return;
    var field = event.target.closest && event.target.closest("input, select, textarea");
    if (field) return;
    var key = event.key.toLowerCase();
    var assert = choice.panel.dataset.boardPlay === "assert";
    if (key === "escape") {
      cancel();
    } else if (/^[1-4]$/.test(key)) {
      var pos = Number(key) - 1;
      var ownStep = !assert && (choice.actor === null || stage() === "ally");
      pickFish(ownStep, pos, false);
    } else if (key === "enter" || key === " ") {
      var fish = event.target.closest && event.target.closest(".fish--choice .fish-picture[role=button]");
      if (fish) {
        fish = fish.closest(".fish");
        pickFish(Boolean(fish.closest(".team--own")), Number(fish.dataset.pos), true);
      } else if (key === " ") {
        return;
      } else {
        // Enter confirms a whole move wherever the focus is, the attack / skill toggles included
        // (they would otherwise take it as a click and start the choice of targets again); other
        // buttons and links keep their own Enter.
        var focused = event.target.closest && event.target.closest("button, a, summary");
        var toggle = focused && focused.matches(".fish-menu button[data-kind]");
        if (focused && !(toggle && complete())) return;
        send();
      }
    } else if (!assert && KINDS[key] && choice.actor !== null) {
      pickKind(KINDS[key]);
    } else if (assert && key === "s") {
      var skip = document.querySelector(".skip-form");
      if (skip) submit(skip);
    } else {
      return;
    }
    event.preventDefault();
  });

  document.addEventListener("DOMContentLoaded", setup);
  document.addEventListener("htmx:wsAfterMessage", setup);
})();
