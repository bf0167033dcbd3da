"""What the players of a 三国 game are told (by mail, Web Push: notify/), found on every sweep:

- a phase opened in which the seat may act (``sanguo_phase``);
- an hour before that phase's deadline, if the seat has not acted in it (``sanguo_deadline``);
- the game master (the engine, for the game master) asks the seat for a choice (``sanguo_asked``).

Each is one ``notify.Notice`` row by its unique key, however many processes sweep; a notice whose
news is no longer true when its turn to be sent comes (the phase moved on, the choice was made) is
dropped unsent (``stale``). Only the seat's own person is told, and a notice says no more than their
page does: that they may act, not what anyone else did.
"""
from datetime import timedelta

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from game.games.three_kingdoms import engine
from notify.events import wants
from notify.models import Notice

from .models import Event, Game, Seat

REMIND_BEFORE = timedelta(hours=1)
# A game changed this recently is looked at for news (sweeps come every few seconds).
RECENT = timedelta(hours=1)
# The phases in which seats submit; the others are the server's and the game master's.
ACTING = ("night_action", "day_wound", "day_vote")
KINDS = (Notice.Kind.SANGUO_PHASE, Notice.Kind.SANGUO_DEADLINE, Notice.Kind.SANGUO_ASKED)


def _news(game, now):
    """[(key, kind, seat, deadline)] of what the game's seats may be told now."""
    state = game.state
    if state["phase"] == "over":
        return []
    found = []
    owing = set(engine.awaiting(state)["seats"])
    if state["phase"] in ACTING:
        opened = game.phase_opened
        acted = set(Event.objects.filter(game=game, version__gt=opened).exclude(actor__in=("gm", "server"))
                    .values_list("actor", flat=True))
        for seat in sorted(owing):
            period = f"{game.pk}:{opened}:{seat}"
            found.append((f"sanguo_phase:{period}", Notice.Kind.SANGUO_PHASE, seat, game.deadline))
            due = game.deadline is not None and game.deadline - REMIND_BEFORE <= now < game.deadline
            if due and str(seat) not in acted:
                found.append((f"sanguo_deadline:{period}", Notice.Kind.SANGUO_DEADLINE, seat, game.deadline))
    for decision in state["pending"]:
        if decision["for"] != "gm":
            key = f"sanguo_asked:{game.pk}:{decision['key']}"
            found.append((key, Notice.Kind.SANGUO_ASKED, decision["for"], None))
    return found


def find(now=None):
    """Make a notice of everything not told yet; returns how many were made."""
    now = now or timezone.now()
    games = Game.objects.filter(Q(updated__gte=now - RECENT) | Q(deadline__lte=now + REMIND_BEFORE),
                                status=Game.Status.LIVE)
    made = []
    for game in games:
        news = _news(game, now)
        if not news:
            continue
        known = set(Notice.objects.filter(key__in=[n[0] for n in news]).values_list("key", flat=True))
        fresh = [n for n in news if n[0] not in known]
        people = dict(Seat.objects.filter(game=game).exclude(seat=None).values_list("seat", "user_id"))
        choices = wants(set(people.values()))
        link = reverse("sanguo:game", args=[game.pk])
        for key, kind, seat, deadline in fresh:
            user_id = people.get(seat)
            if user_id is None:
                continue
            made.append(Notice(
                user_id=user_id, kind=kind, key=key, seat=seat, version=game.phase_opened, deadline=deadline,
                link=link, mail_due=choices[user_id][0], push_due=choices[user_id][1],
            ))
    Notice.objects.bulk_create(made, ignore_conflicts=True)
    return len(made)


def _game_of(notice):
    return Game.objects.filter(pk=int(notice.key.split(":")[1])).first()


def stale(notice):
    """Whether the notice's news no longer holds: the game ended, its phase moved on, the seat acted
    or answered."""
    game = _game_of(notice)
    if game is None or game.status != Game.Status.LIVE:
        return True
    if notice.kind == Notice.Kind.SANGUO_ASKED:
        key = notice.key.split(":", 2)[2]
        return not any(str(d["key"]) == key and d["for"] == notice.seat for d in game.state["pending"])
    if game.phase_opened != notice.version:
        return True
    if notice.kind == Notice.Kind.SANGUO_DEADLINE:
        return Event.objects.filter(game=game, version__gt=notice.version, actor=str(notice.seat)).exists()
    return False


def unseen(user, game):
    """The user's notices of ``game`` not shown yet, marked seen now (the game's page shows them)."""
    keys = Q()
    for kind in KINDS:
        keys |= Q(key__startswith=f"{kind}:{game.pk}:")
    found = list(Notice.objects.filter(keys, user=user, seen=False).order_by("-created")[:20])
    Notice.objects.filter(pk__in=[n.pk for n in found]).update(seen=True)
    return found
