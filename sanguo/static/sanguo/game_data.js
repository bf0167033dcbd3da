// The game master's data forms (recruiting page): each row group's "Add a row" button copies the
// group's last row, empty and numbered next, and counts it in the form's hidden row count, which
// tells the server how many rows to read. Without this script the forms work the same, with their
// fixed blank rows; the button stays hidden.
"use strict";

(() => {
  // A skill's effect row may go among the skill's effects or into any earlier row's outcome: the
  // choices are rebuilt from the group's words, as the server builds them (sanguo.data._parents).
  function whereChoices(group, select, count) {
    select.replaceChildren();
    const add = (value, label) => select.append(new Option(label, value));
    add("", group.dataset.top);
    for (let row = 1; row <= count; row += 1) {
      add(`${row}:then`, group.dataset.then.replace("ROW", row));
      add(`${row}:else`, group.dataset.else.replace("ROW", row));
    }
  }

  function addRow(group) {
    const rows = group.querySelectorAll("[data-row]");
    const last = rows[rows.length - 1];
    const n = rows.length;
    const row = last.cloneNode(true);
    for (const attribute of ["data-effect-row", "data-identification-row", "data-natural-death-row"]) {
      if (row.hasAttribute(attribute)) row.setAttribute(attribute, String(n));
    }
    const legend = row.querySelector("legend");
    legend.textContent = legend.textContent.replace(/\d+/, String(n + 1));
    // A copied row is a new one: nothing to remove.
    for (const remove of row.querySelectorAll("input[name^=ident_remove_]")) remove.closest("label").remove();
    for (const field of row.querySelectorAll("input, select")) {
      field.name = field.name.replace(/_\d+$/, `_${n}`);
      if (field.type === "checkbox") field.checked = false;
      else if (field.tagName === "SELECT") field.selectedIndex = 0;
      else field.value = "";
    }
    if (group.dataset.where) {
      let select = row.querySelector("select[name^=skill_effect_parent_]");
      if (!select) {
        const label = document.createElement("label");
        select = document.createElement("select");
        select.name = row.querySelector("select").name.replace("_kind_", "_parent_");
        label.append(`${group.dataset.where} `, select);
        row.querySelector("label").after(label);
      }
      whereChoices(group, select, n);
    }
    last.after(row);
    group.closest("form").querySelector(`input[name="${group.dataset.count}"]`).value = String(n + 1);
    row.querySelector("select, input").focus();
  }

  for (const button of document.querySelectorAll("[data-row-group] [data-add-row]")) {
    button.hidden = false;
    button.addEventListener("click", () => addRow(button.closest("[data-row-group]")));
  }
})();
