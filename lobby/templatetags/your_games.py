"""``{% your_games_panel %}`` (the lobby's) and ``{% your_move_count %}`` (the header's): the person's
live matches that wait for their move, and the other games waiting for them (lobby/your_games.py)."""
from django import template

from .. import your_games

register = template.Library()


def _rows(context):
    # Read once per request: the header and the lobby's panel share them.
    request = context.get("request")
    if not hasattr(request, "_your_games"):
        request._your_games = your_games.rows(request.user)
    return request._your_games


@register.simple_tag(takes_context=True)
def your_move_count(context):
    request = context.get("request")
    if request is None or not request.user.is_authenticated:
        return 0
    return sum(1 for row in _rows(context) if row.your_move)


@register.inclusion_tag("lobby/_your_games.html", takes_context=True)
def your_games_panel(context, limit=5):
    request = context.get("request")
    if request is None or not request.user.is_authenticated:
        return {"rows": None}
    return {"rows": _rows(context)[:limit], "more": len(_rows(context)) > limit, "panel": True}
