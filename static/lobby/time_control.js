// A new match's time control belongs to its game (per decision in one, per turn in another; both
// offer 60 s): only the chosen game's group (its options are valued "game:seconds") and "No clock"
// can be chosen, so a person never picks one game's control for the other game. Without this
// script the server still refuses a control of another game (lobby/forms.py).
(function () {
  "use strict";

  function seconds(option) { return option.value.split(":").pop(); }

  function off(option) { return option.parentNode.tagName === "OPTGROUP" && option.parentNode.disabled; }

  // A choice in another game's group becomes the same seconds in the chosen game's group if it has
  // them, else "No clock".
  function keepInStep(game, clock) {
    Array.prototype.forEach.call(clock.querySelectorAll("optgroup"), function (group) {
      var other = !group.querySelector('option[value^="' + game.value + ':"]');
      group.disabled = other;
      group.hidden = other;
    });
    var chosen = clock.options[clock.selectedIndex];
    if (!chosen || !off(chosen)) return;
    var same = Array.prototype.find.call(clock.options, function (option) {
      return !off(option) && seconds(option) === seconds(chosen);
    });
    var none = Array.prototype.find.call(clock.options, function (option) { return option.value === "0"; });
    (same || none).selected = true;
  }

  document.querySelectorAll("form").forEach(function (form) {
    var game = form.querySelector("select[name=game]");
    var clock = form.querySelector("select[name=move_seconds]");
    if (!game || !clock) return;
    game.addEventListener("change", function () { keepInStep(game, clock); });
    keepInStep(game, clock);
  });
})();
