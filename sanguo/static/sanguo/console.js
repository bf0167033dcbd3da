// The 天庭 console's row lists (an override's effects, rolls and actions; a skill decision's
// effects): "Add" and "Remove" buttons. The forms work without this script — they come with blank
// rows enough for most rulings, and an empty kind or ID is no row — so it only adds what a page
// without it lacks. The server reads rows in the page's order by their fields' numbers, so a new
// row takes a number after every other and removing one renumbers only what is shown. The page's
// sections are swapped in when the game changes (game.js): each new one is set up again.
(function () {
  "use strict";
  const root = document.getElementById("sanguo-game");
  if (!root) return;

  function renumber(list) {
    const rows = list.querySelectorAll(":scope > [data-row]");
    rows.forEach((row, index) => {
      const number = String(index + 1);
      row.querySelector("[data-row-number]").textContent = number;
      const remove = row.querySelector(":scope > [data-remove-row]");
      remove.textContent = list.dataset.remove + " " + number;
    });
  }

  function removeButton(row) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button button--small button--quiet";
    button.dataset.removeRow = "";
    row.append(button);
  }

  function blank(row) {
    for (const field of row.querySelectorAll("input, select, textarea")) {
      if (field.type === "checkbox") field.checked = false;
      else if (field.tagName === "SELECT") field.selectedIndex = 0;
      else field.value = "";
    }
  }

  function add(list) {
    const rows = [...list.querySelectorAll(":scope > [data-row]")];
    const numbers = rows.flatMap((row) => [...row.querySelectorAll("[name]")].map((f) => Number(f.name.match(/_(\d+)$/)[1])));
    const next = numbers.length ? Math.max(...numbers) + 1 : 0;
    const row = list.template.cloneNode(true);
    for (const field of row.querySelectorAll("[name]")) field.name = field.name.replace(/_\d+$/, "_" + next);
    blank(row);
    removeButton(row);
    list.querySelector(":scope > [data-add-row]").before(row);
    renumber(list);
    row.querySelector("select, input").focus();
  }

  function setUp(list) {
    if (list.dataset.ready !== undefined) return;
    list.dataset.ready = "";
    const rows = list.querySelectorAll(":scope > [data-row]");
    // A pristine copy to add from, so a list whose rows were all removed still grows.
    list.template = rows[0].cloneNode(true);
    for (const row of rows) removeButton(row);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button button--small";
    button.dataset.addRow = "";
    button.textContent = list.dataset.add;
    rows[rows.length - 1].after(button);
    renumber(list);
  }

  function setUpAll() {
    for (const list of root.querySelectorAll("fieldset[data-rows]")) setUp(list);
  }

  root.addEventListener("click", (event) => {
    const button = event.target.closest("[data-add-row], [data-remove-row]");
    if (!button) return;
    const list = button.closest("fieldset[data-rows]");
    // The game data's rows (recruiting) have their own script.
    if (!list) return;
    if (button.dataset.addRow !== undefined) {
      add(list);
    } else {
      button.closest("[data-row]").remove();
      renumber(list);
      list.querySelector(":scope > [data-add-row]").focus();
    }
  });

  setUpAll();
  new MutationObserver(setUpAll).observe(root, { childList: true });
})();
