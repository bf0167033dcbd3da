// Aquawar's pick form: the ordered team list (loaded after game/match.js, whose handlers run first).
(function () {
  "use strict";

  // Picking: the server renders one checkbox per species (in roster order). Here each tick appends
  // the fish to an ordered list; the list's hidden inputs, not the checkboxes, carry the team, so
  // the order the player sets is the order of positions #1-#4 the server receives.
  // The draft outlives a redraw of the controls (the opponent locking in redraws them).
  var draft = { order: [], mimic: "" };

  function button(text, label, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "button button--quiet button--small";
    b.textContent = text;
    b.setAttribute("aria-label", label);
    b.title = label;
    b.addEventListener("click", onClick);
    return b;
  }

  function enhancePickForm(form) {
    if (form.renderTeam) {
      form.renderTeam();
      return;
    }
    var count = Number(form.dataset.count) || 4;
    var boxes = Array.prototype.slice.call(form.querySelectorAll("input.pick-check"));
    var team = form.querySelector(".pick-team");
    var slots = form.querySelector(".pick-slots");
    var submit = form.querySelector("button[type=submit]");
    var mimic = form.querySelector("select[name=mimic]");
    var byId = {};
    boxes.forEach(function (box) {
      byId[box.value] = box;
      box.removeAttribute("name");
      var badge = document.createElement("span");
      badge.className = "pick-order";
      box.closest("label").appendChild(badge);
    });
    team.hidden = false;
    draft.order = draft.order.filter(function (id) { return byId[id]; });
    if (mimic && draft.mimic) mimic.value = draft.mimic;

    function move(index, by) {
      var id = draft.order.splice(index, 1)[0];
      draft.order.splice(index + by, 0, id);
      render();
    }

    function render() {
      var placed = {};
      draft.order.forEach(function (id, i) { placed[id] = i + 1; });
      boxes.forEach(function (box) {
        box.checked = Boolean(placed[box.value]);
        box.disabled = !box.checked && draft.order.length >= count;
        box.closest("label").querySelector(".pick-order").textContent = placed[box.value] || "";
      });
      var items = [];
      for (var i = 0; i < count; i++) {
        var li = document.createElement("li");
        var pos = document.createElement("span");
        pos.className = "fish-pos";
        pos.textContent = "#" + (i + 1);
        li.appendChild(pos);
        var id = draft.order[i];
        if (!id) {
          li.className = "pick-slot pick-slot--empty";
          li.appendChild(document.createTextNode(" " + form.dataset.textEmpty));
          items.push(li);
          continue;
        }
        var card = byId[id].closest("label");
        li.className = "pick-slot";
        var picture = card.querySelector("img");
        if (picture) li.appendChild(picture.cloneNode());
        var name = document.createElement("span");
        name.className = "pick-slot__name";
        name.textContent = card.querySelector("strong").textContent;
        li.appendChild(name);
        var up = button("↑", form.dataset.textUp + ": " + name.textContent, move.bind(null, i, -1));
        up.disabled = i === 0;
        var down = button("↓", form.dataset.textDown + ": " + name.textContent, move.bind(null, i, 1));
        down.disabled = i === draft.order.length - 1;
        var remove = button("✕", form.dataset.textRemove + ": " + name.textContent, function (which) {
          draft.order = draft.order.filter(function (other) { return other !== which; });
          render();
        }.bind(null, id));
        [up, down, remove].forEach(function (b) { li.appendChild(b); });
        var field = document.createElement("input");
        field.type = "hidden";
        field.name = "fish";
        field.value = id;
        li.appendChild(field);
        items.push(li);
      }
      var focused = document.activeElement && slots.contains(document.activeElement) ? document.activeElement.getAttribute("aria-label") : null;
      slots.replaceChildren.apply(slots, items);
      if (focused) {
        // Keep the keyboard where it was when a fish moves up or down the list.
        var again = Array.prototype.find.call(slots.querySelectorAll("button"), function (b) {
          return b.getAttribute("aria-label") === focused && !b.disabled;
        });
        if (again) again.focus();
      }
      var needsMimic = mimic && placed.mimic_fish && !mimic.value;
      submit.disabled = draft.order.length !== count || Boolean(needsMimic);
      // A greyed-out button says why it is.
      var missing = count - draft.order.length;
      var why = "";
      if (missing === 1) why = form.dataset.textMoreOne;
      else if (missing > 1) why = form.dataset.textMore.replace("{n}", missing);
      else if (needsMimic) why = form.dataset.textMimic;
      form.querySelector(".pick-missing").textContent = why;
    }

    boxes.forEach(function (box) {
      box.addEventListener("change", function () {
        if (box.checked) draft.order.push(box.value);
        else draft.order = draft.order.filter(function (id) { return id !== box.value; });
        render();
      });
      // Space ticks a checkbox natively; Enter does the same here, as on the other controls.
      box.addEventListener("keydown", function (event) {
        if (event.key === "Enter") {
          event.preventDefault();
          if (!box.disabled) box.click();
        }
      });
    });
    if (mimic) {
      mimic.addEventListener("change", function () { draft.mimic = mimic.value; render(); });
    }
    form.renderTeam = render;
    render();
  }

  function enhance() {
    document.querySelectorAll(".pick-form").forEach(enhancePickForm);
    if (!document.querySelector(".pick-form")) draft = { order: [], mimic: "" };
  }

  document.addEventListener("DOMContentLoaded", enhance);
  // After game/match.js has made every form usable again, the pick form decides again which of
  // its buttons make sense.
  document.addEventListener("htmx:wsAfterMessage", enhance);
})();
