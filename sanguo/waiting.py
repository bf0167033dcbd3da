"""The 三国 games that need a person now, for the lobby's "Your games" and the header's count
(``lobby.your_games.ELSEWHERE``, filled in ``SanguoConfig.ready``: the lobby knows nothing of 三国):

- a seat asked a choice (招揽/投奔 offers, 代理君主, 遗言);
- a seat in a phase where it may act (the engine's ``awaiting``) with no event of its own since the
  phase opened — the same test as the reminder an hour before the deadline (``notices``);
- the game master or co-GM owing decisions.

All of it comes from the person's own rows: whether other seats acted is never read, so a row says
no more than the person's game page does. One query finds the games and whether the person's seat
acted; only those games' states are then read.
"""
from datetime import datetime, timezone as tz

from django.db.models import CharField, Exists, OuterRef, Q, Subquery
from django.db.models.functions import Cast
from django.urls import reverse
from django.utils.translation import gettext as _

from game.games.three_kingdoms import engine
from lobby.your_games import Elsewhere

from . import texts
from .models import Event, Game, Seat
from .notices import ACTING


def _phase_deadline(state):
    """When the running phase (or its revision window) is due to close by the rules, even while a
    game master's decision holds the close (``Game.deadline`` is then null, but the phase's time is
    what the person is working against)."""
    revision = state.get("revision")
    seconds = revision["until"] if revision else state.get("deadline")
    return None if seconds is None else datetime.fromtimestamp(seconds, tz=tz.utc)


def _waiting_for(game, state):
    """What the game waits for from its person (``game.my_seat``: their seat, None for the game
    master or co-GM), in words, or None."""
    if game.my_seat is None:
        return _("Decisions wait for you (天庭)") if engine.awaiting(state)["gm"] else None
    if any(d["for"] == game.my_seat for d in state["pending"]):
        return _("A choice is asked of you")
    if state["phase"] in ACTING and not game.acted and game.my_seat in engine.awaiting(state)["seats"]:
        return _("You have not acted in this phase")
    return None


def rows(user):
    seats = Seat.objects.filter(user=user).exclude(seat=None).order_by()
    acted = Event.objects.filter(game=OuterRef("pk"), version__gt=OuterRef("phase_opened"),
                                 actor=Cast(OuterRef("my_seat"), CharField()))
    games = (Game.objects.filter(Q(gm=user) | Q(co_gm=user) | Q(pk__in=seats.values("game")), status=Game.Status.LIVE)
             .annotate(my_seat=Subquery(seats.filter(game=OuterRef("pk")).values("seat")[:1]))
             .annotate(acted=Exists(acted)))
    found = []
    for game in games:
        state = game.state
        waiting_for = _waiting_for(game, state)
        if waiting_for is None:
            continue
        name = game.title or _("三国 game #%(number)s") % {"number": game.pk}
        title = f"{name} · {texts.phase_title(state['night'], state['phase'])}"
        found.append(Elsewhere(title, waiting_for, reverse("sanguo:game", args=[game.pk]), _phase_deadline(state)))
    return found
