from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from game import games


def time_control_label(seconds, unit):
    """``unit``: what the game's clock counts (``Game.clock_counts``)."""
    if not seconds:
        return gettext("None (casual)")
    if unit == "turn":
        return gettext("%(seconds)s s per turn") % {"seconds": seconds}
    return gettext("%(seconds)s s per decision") % {"seconds": seconds}


def time_control_choices():
    """Every time control some game offers, worded for the first game that offers it; whether it
    fits the game chosen is checked when the match is created (``GameChoice.clean``)."""
    units = {}
    for game in games.every():
        for seconds in game.time_controls:
            units.setdefault(seconds, game.clock_counts)
    return [(seconds, lazy(time_control_label, str)(seconds, unit)) for seconds, unit in units.items()]


def time_control_field():
    """Seconds per decision (or turn) for the people in a new match (machines keep their own clocks)."""
    return forms.TypedChoiceField(
        label=_("Time control"),
        choices=time_control_choices(),
        coerce=int,
        # A form that does not ask (an older page, a script) gets the casual match it always got.
        required=False,
        empty_value=0,
        initial=0,
        error_messages={"invalid_choice": games.get(games.DEFAULT).bad_time_control},
    )


class GameChoice(forms.Form):
    """Which game a new match is of, and a time control that game offers."""

    # Not required: a form that does not ask (an older page, a script) gets the default game.
    game = forms.ChoiceField(label=_("Game"), choices=games.choices, required=False, initial=games.DEFAULT)
    move_seconds = time_control_field()

    def clean(self):
        cleaned = super().clean()
        chosen = games.get(cleaned.get("game") or games.DEFAULT)
        cleaned["game"] = chosen.name
        if "move_seconds" in cleaned and cleaned["move_seconds"] not in chosen.time_controls:
            self.add_error("move_seconds", chosen.bad_time_control)
        return cleaned


class NewMatchForm(GameChoice):
    field_order = ("game", "visibility", "move_seconds")
    visibility = forms.ChoiceField(
        label=_("Who may join"),
        choices=[
            ("open", _("Anyone: list it in the lobby")),
            ("private", _("Only people I send the invite link to")),
        ],
        initial="open",
        widget=forms.RadioSelect,
    )

    @property
    def private(self):
        return self.cleaned_data["visibility"] == "private"


def level_choices():
    """Every game's built-in levels; whether the chosen game has the level is checked when the match
    is created (``seats.start_vs_computer``)."""
    levels = {}
    for game in games.every():
        for level, label in game.levels.items():
            levels.setdefault(level, label)
    return list(levels.items())


class VsComputerForm(GameChoice):
    # ``move_seconds``: for the person only; a built-in bot moves at once and is never held to a clock.
    level = forms.ChoiceField(
        label=_("Level"), choices=level_choices, initial=games.get(games.DEFAULT).default_level
    )


class TokenForm(forms.Form):
    name = forms.CharField(label=_("Token name"), max_length=64, strip=True)
