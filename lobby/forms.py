from django import forms
from django.contrib.auth.forms import PasswordChangeForm
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from game import games, time_controls
from game.programs import tokens


def time_control_label(key, unit):
    """``key``: a control as ``TimeControl.key`` names it; ``unit``: what the game's clock counts."""
    return time_controls.label(time_controls.TimeControl.parse(key), unit)


def time_control_choices():
    """None, then each game's own time controls under its title, each valued ``game:key`` ("30",
    "180+5": a control means per decision in one game, per turn in another, and both have 60 s: the
    value says which game's is meant); whether it fits the game chosen is checked in
    ``GameChoice.clean``."""
    choices = [("0", lazy(time_control_label, str)("0", None))]
    for game in games.every():
        controls = [
            (f"{game.name}:{control.key}", lazy(time_control_label, str)(control.key, game.clock_counts))
            for control in time_controls.presets(game)
        ]
        choices.append((game.title, controls))
    return choices


class TimeControlField(forms.ChoiceField):
    """A value of ``time_control_choices``, or plain seconds (older pages and scripts), meant for the
    game chosen alongside; ``GameChoice.clean`` turns either into seconds and a bank."""

    def valid_value(self, value):
        return super().valid_value(value) or (value.isascii() and value.isdigit())


def time_control_field():
    """The time control for the people in a new match (machines keep their own clocks)."""
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
    """Which game a new match is of, and a time control that game offers: a preset, or a bank and
    an increment of one's own (``bank_minutes``, ``increment``), which the services check against
    the game's limits."""

    # Not required: a form that does not ask (an older page, a script) gets the default game.
    game = forms.ChoiceField(label=_("Game"), choices=games.choices, required=False, initial=games.DEFAULT)
    move_seconds = time_control_field()
    bank_minutes = forms.IntegerField(
        label=_("Or a bank of your own: minutes"), required=False, min_value=1, max_value=10000
    )
    increment = forms.IntegerField(label=_("plus seconds per move"), required=False, min_value=0, max_value=10000)

    def get_initial_for_field(self, field, field_name):
        """The control remembered (or a subclass's default) as the option of the game it is for."""
        initial = super().get_initial_for_field(field, field_name)
        if field_name == "move_seconds" and isinstance(initial, int) and initial:
            game = self.get_initial_for_field(self.fields["game"], "game") or games.DEFAULT
            bank = self.initial.get("bank_seconds") or 0
            return f"{game}:{time_controls.TimeControl(initial, bank).key}"
        return initial

    def clean(self):
        cleaned = super().clean()
        chosen = games.get(cleaned.get("game") or games.DEFAULT)
        cleaned["game"] = chosen.name
        if self.has_error("bank_minutes") or self.has_error("increment"):
            # Said where the pages look for a time control's refusal, with what is allowed.
            self.add_error("move_seconds", time_controls.limits_text(chosen))
        elif cleaned.get("bank_minutes"):
            cleaned["move_seconds"] = cleaned.get("increment") or 0
            cleaned["bank_seconds"] = cleaned["bank_minutes"] * 60
        elif "move_seconds" in cleaned:
            named, _colon, key = cleaned["move_seconds"].rpartition(":")
            control = time_controls.TimeControl.parse(key or "0")
            if named not in ("", chosen.name) or (control.timed and control not in time_controls.presets(chosen)):
                self.add_error("move_seconds", chosen.bad_time_control)
            else:
                cleaned["move_seconds"], cleaned["bank_seconds"] = control
        return cleaned

    @property
    def time_control(self):
        """The ``move_seconds`` and ``bank_seconds`` the services take."""
        return {"move_seconds": self.cleaned_data["move_seconds"], "bank_seconds": self.cleaned_data["bank_seconds"]}


class NewMatchForm(GameChoice):
    field_order = ("game", "visibility", "move_seconds", "bank_minutes", "increment", "rated")
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


class ChallengeForm(GameChoice):
    """A challenge to one person by name (lobby/challenges.py): the lobby's, or a profile's with the
    name given."""

    field_order = ("opponent", "game", "move_seconds", "bank_minutes", "increment", "rated")
    opponent = forms.CharField(label=_("Player's name"), max_length=150, strip=True)
    rated = rated_field()


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
