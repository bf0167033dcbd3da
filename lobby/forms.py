from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from game.models import TIME_CONTROLS


def time_control_label(seconds):
    if not seconds:
        return gettext("None (casual)")
    return gettext("%(seconds)s s per decision") % {"seconds": seconds}


def time_control_field():
    """Seconds per decision for the people in a new match (machines keep their own clocks)."""
    return forms.TypedChoiceField(
        label=_("Time control"),
        choices=[(seconds, lazy(time_control_label, str)(seconds)) for seconds in TIME_CONTROLS],
        coerce=int,
        # A form that does not ask (an older page, a script) gets the casual match it always got.
        required=False,
        empty_value=0,
        initial=0,
        error_messages={"invalid_choice": _("Choose a time control: none, or 30, 60 or 120 seconds per decision.")},
    )


class NewMatchForm(forms.Form):
    visibility = forms.ChoiceField(
        label=_("Who may join"),
        choices=[
            ("open", _("Anyone: list it in the lobby")),
            ("private", _("Only people I send the invite link to")),
        ],
        initial="open",
        widget=forms.RadioSelect,
    )
    move_seconds = time_control_field()

    @property
    def private(self):
        return self.cleaned_data["visibility"] == "private"


LEVEL_CHOICES = [
    ("random", _("Random: any legal move")),
    ("greedy", _("Greedy: the best move right now")),
    ("expert", _("Expert: looks a move ahead")),
]


class VsComputerForm(forms.Form):
    level = forms.ChoiceField(label=_("Level"), choices=LEVEL_CHOICES, initial="greedy")
    # For the person only: a built-in bot moves at once and is never held to a clock.
    move_seconds = time_control_field()


class TokenForm(forms.Form):
    name = forms.CharField(label=_("Token name"), max_length=64, strip=True)
