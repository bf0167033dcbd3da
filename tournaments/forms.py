from django import forms
from django.utils.translation import gettext_lazy as _

from game import games
from lobby.forms import GameChoice

from .models import Tournament
from .services import MAX_NAME, MAX_ROUNDS


class TournamentForm(GameChoice):
    """A new tournament. The services check everything again (limits, the start, the rounds)."""

    field_order = (
        "name", "game", "kind", "players", "rated", "move_seconds", "bank_minutes", "increment", "starts", "rounds"
    )
    name = forms.CharField(label=_("Name"), max_length=MAX_NAME, strip=True)
    kind = forms.ChoiceField(label=_("Format"), choices=Tournament.Kind.choices, initial=Tournament.Kind.SWISS)
    players = forms.ChoiceField(
        label=_("Who plays"),
        choices=[("people", _("People")), ("programs", _("Programs (over the bot API)"))],
        initial="people",
        widget=forms.RadioSelect,
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    starts = forms.DateTimeField(
        label=_("Starts at (UTC)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
    )
    rounds = forms.IntegerField(
        label=_("Rounds (Swiss; a round robin plays everyone once)"),
        min_value=1,
        max_value=MAX_ROUNDS,
        initial=5,
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A tournament for people needs a clock: offer the default game's shortest one.
        timed = [s for s in games.get(games.DEFAULT).time_controls if s]
        self.fields["move_seconds"].initial = timed[0] if timed else 0

    def clean(self):
        cleaned = super().clean()
        # The time control of a tournament for programs is the contest's clock, whatever was chosen.
        if cleaned.get("players") == "programs":
            cleaned["move_seconds"] = cleaned["bank_seconds"] = 0
            self.errors.pop("move_seconds", None)
        return cleaned

    @property
    def for_programs(self):
        return self.cleaned_data["players"] == "programs"
