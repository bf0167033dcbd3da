from django import forms
from django.contrib.auth.forms import PasswordChangeForm
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from game import games
from game.programs import tokens


def time_control_label(seconds, unit):
    """``unit``: what the game's clock counts (``Game.clock_counts``)."""
    if not seconds:
        return gettext("No clock")
    if unit == "turn":
        return gettext("%(seconds)s s per turn") % {"seconds": seconds}
    return gettext("%(seconds)s s per decision") % {"seconds": seconds}


def time_control_choices():
    """None, then each game's own time controls under its title, each valued ``game:seconds`` (a
    control means per decision in one game, per turn in another, and both have 60 s: the value says
    which game's is meant); whether it fits the game chosen is checked in ``GameChoice.clean``."""
    choices = [("0", lazy(time_control_label, str)(0, None))]
    for game in games.every():
        controls = [
            (f"{game.name}:{s}", lazy(time_control_label, str)(s, game.clock_counts)) for s in game.time_controls if s
        ]
        choices.append((game.title, controls))
    return choices


class TimeControlField(forms.ChoiceField):
    """A value of ``time_control_choices``, or plain seconds (older pages and scripts), meant for the
    game chosen alongside; ``GameChoice.clean`` turns either into seconds."""

    def valid_value(self, value):
        return super().valid_value(value) or (value.isascii() and value.isdigit())


def time_control_field():
    """Seconds per decision (or turn) for the people in a new match (machines keep their own clocks)."""
    return TimeControlField(
        label=_("Time control"),
        choices=time_control_choices(),
        # A form that does not ask (an older page, a script) gets the casual match it always got.
        required=False,
        initial=0,
        error_messages={"invalid_choice": games.get(games.DEFAULT).bad_time_control},
    )


def rated_field():
    """Rated or casual (``Match.rated``); not required: a form that does not ask (an older page, a
    script) gets the casual match it always got."""
    return forms.TypedChoiceField(
        label=_("Rated or casual"),
        choices=[("casual", _("Casual: ratings stay as they are")), ("rated", _("Rated: the result changes both ratings"))],
        coerce=lambda value: value == "rated",
        required=False,
        empty_value=False,
        initial="casual",
        widget=forms.RadioSelect,
    )


class GameChoice(forms.Form):
    """Which game a new match is of, and a time control that game offers."""

    # Not required: a form that does not ask (an older page, a script) gets the default game.
    game = forms.ChoiceField(label=_("Game"), choices=games.choices, required=False, initial=games.DEFAULT)
    move_seconds = time_control_field()

    def get_initial_for_field(self, field, field_name):
        """The seconds remembered (or a subclass's default) as the option of the game they are for."""
        initial = super().get_initial_for_field(field, field_name)
        if field_name == "move_seconds" and isinstance(initial, int) and initial:
            game = self.get_initial_for_field(self.fields["game"], "game") or games.DEFAULT
            return f"{game}:{initial}"
        return initial

    def clean(self):
        cleaned = super().clean()
        chosen = games.get(cleaned.get("game") or games.DEFAULT)
        cleaned["game"] = chosen.name
        if "move_seconds" in cleaned:
            named, _colon, seconds = cleaned["move_seconds"].rpartition(":")
            seconds = int(seconds or 0)
            if named not in ("", chosen.name) or seconds not in chosen.time_controls:
                self.add_error("move_seconds", chosen.bad_time_control)
            else:
                cleaned["move_seconds"] = seconds
        return cleaned


class NewMatchForm(GameChoice):
    field_order = ("game", "visibility", "move_seconds", "rated")
    visibility = forms.ChoiceField(
        label=_("Who may join"),
        choices=[
            ("open", _("Anyone: list it in the lobby")),
            ("private", _("Only people I send the invite link to")),
        ],
        initial="open",
        widget=forms.RadioSelect,
    )

    rated = rated_field()

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


class PasswordAndTokensForm(PasswordChangeForm):
    """Django's password change, which ends the account's other sessions (and closes their sockets,
    game/live/sessions.py), with the choice to revoke every API token too: a token is no session,
    and a password change alone leaves it working."""

    revoke_tokens = forms.BooleanField(
        label=_("Also revoke all my API tokens"),
        help_text=_("Programs using them stop working until you give them a new token."),
        required=False,
    )

    def save(self, commit=True):
        user = super().save(commit)
        if commit and self.cleaned_data["revoke_tokens"]:
            tokens.revoke_all(user)
        return user
