"""What a profile shows of play per game: the current rating, its history as a chart, and the
won/lost counts by game and by rated or casual."""
from django.db.models import Count, Q

from game import games
from game.history import charts
from game.models import Match

from .api import ratings_of
from .models import RatingChange

# The chart shows the last this many rated matches: enough to see a trend, small enough to read.
CHART_MATCHES = 100
# The vertical axis is drawn in whole steps of this many points around the ratings shown.
AXIS_STEP = 50


def rating_chart(user, game):
    """The chart (``charts.plot``) of ``user``'s rating in ``game`` after each rated match, starting
    from the rating before the first; None before any rated match."""
    changes = list(
        RatingChange.objects.filter(user_id=user.pk, game=game).order_by("-created", "-pk")[:CHART_MATCHES]
    )[::-1]
    if not changes:
        return None
    values = [round(changes[0].before)] + [round(change.after) for change in changes]
    low = min(values) // AXIS_STEP * AXIS_STEP
    # Four equal spans of whole steps, at least one step each, reaching the highest rating.
    span = max(max(values) - low, 1)
    top = low + -(-span // (4 * AXIS_STEP)) * 4 * AXIS_STEP
    return charts.plot([(step, value) for step, value in enumerate(values)], top, low)


def records(user):
    """{game name: {"rated": (won, lost), "casual": (won, lost)}} over ``user``'s finished matches
    (imported ones never count)."""
    finished = Match.objects.filter(Q(host=user) | Q(guest=user), status=Match.Status.FINISHED, imported=False)
    won = Q(host=user, winner=0) | Q(guest=user, winner=1)
    lost = Q(host=user, winner=1) | Q(guest=user, winner=0)
    rows = finished.values("game", "rated").annotate(won=Count("pk", filter=won), lost=Count("pk", filter=lost))
    found = {}
    for row in rows:
        kind = "rated" if row["rated"] else "casual"
        found.setdefault(row["game"], {})[kind] = (row["won"], row["lost"])
    return found


def per_game(user):
    """One row per game of the registry: its standing, chart and records for ``user``."""
    counts = records(user)
    rows = []
    for game in games.every():
        standing = ratings_of([user.pk], game.name)[user.pk]
        rows.append(
            {
                "game": game,
                "standing": standing,
                "chart": rating_chart(user, game.name),
                "rated": counts.get(game.name, {}).get("rated", (0, 0)),
                "casual": counts.get(game.name, {}).get("casual", (0, 0)),
            }
        )
    return rows
