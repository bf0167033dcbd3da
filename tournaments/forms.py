from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from django import forms
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from game import games
from lobby.forms import GameChoice

from .models import Tournament
from .services import MAX_NAME, MAX_ROUNDS


class TournamentForm(GameChoice):
    """A new tournament. The services check everything again (limits, the start, the rounds)."""

    field_order = (
        "name", "game", "kind", "players", "rated", "move_seconds", "bank_minutes", "increment", "starts", "time_zone",
        "rounds", "enter",
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
    # In the organiser's own time zone, which their browser names (static/tournaments/local_time.js);
    # a page without the script sends none, and the label says UTC.
    starts = forms.DateTimeField(
        label=_("Starts at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
    )
    time_zone = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)
    enter = forms.BooleanField(label=_("I play in it too (register me)"), required=False, initial=True)
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
        # The zone's name is put in by the page's script, which also sets the field's time from
        # ``data-utc`` in the browser's zone; without it both stay UTC, as the server reads them.
        zone = format_html('<span data-time-zone>{}</span>', "UTC")
        self.fields["starts"].help_text = format_html(_("Your time zone: {zone}"), zone=zone)
        initial = self.initial.get("starts")
        if initial:
            self.fields["starts"].widget.attrs["data-utc"] = initial.isoformat()

    def clean_time_zone(self):
        name = self.cleaned_data["time_zone"]
        if name and name not in known_time_zones():
            raise forms.ValidationError(_("Unknown time zone: %(name)s.") % {"name": name})
        return name or "UTC"

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("starts") and cleaned.get("time_zone"):
            # The field read the wall-clock time as UTC: the same time on the organiser's clock,
            # with that zone's offset on that date (summer time included).
            cleaned["starts"] = cleaned["starts"].replace(tzinfo=ZoneInfo(cleaned["time_zone"]))
        # The time control of a tournament for programs is the contest's clock, whatever was chosen.
        if cleaned.get("players") == "programs":
            cleaned["move_seconds"] = cleaned["bank_seconds"] = 0
            self.errors.pop("move_seconds", None)
        return cleaned

    @property
    def for_programs(self):
        return self.cleaned_data["players"] == "programs"


@cache
def known_time_zones():
    """The IANA names this system knows: a name from the page is looked up here, never used as a path."""
    return frozenset(available_timezones())
