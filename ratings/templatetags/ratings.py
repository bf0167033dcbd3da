"""``{% player user %}``: an account's name linked to its profile, with a BOT badge for a program's.

Every name on the site goes through it, so programs are marked wherever names show. The ids of the
program accounts are read once per request (a short list: few accounts are programs) and kept on it.
"""
from django import template
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.translation import gettext as _

from ..api import all_program_ids
from ..forms import PlayNowForm
from ..pairing import waiting
from ..profile import per_game

register = template.Library()


def _programs(context):
    request = context.get("request")
    if request is None:
        return all_program_ids()
    if not hasattr(request, "_program_ids"):
        request._program_ids = all_program_ids()
    return request._program_ids


@register.simple_tag(takes_context=True)
def player(context, user, link=True):
    """``user``: an account, or a plain name (an imported record's player: no link, no badge)."""
    if user is None:
        return ""
    if isinstance(user, str):
        return render_to_string("ratings/_player.html", {"name": user, "program": False, "link": False})
    return render_to_string(
        "ratings/_player.html",
        {"name": user.username, "program": user.pk in _programs(context), "link": link},
    )


@register.simple_tag(takes_context=True)
def rated_player(context, user, standing):
    """``{% player user %}`` followed by ``standing`` (a ``Standing``, or None: nothing), "1500?"
    while provisional: the lobby's lists."""
    name = player(context, user)
    if not name or not standing:
        return name
    # Written here, not with a template: the lobby draws up to a hundred of them per poll.
    title = _("Provisional rating") if standing.provisional else _("Rating")
    return format_html(
        '{} <span class="muted lobby-rating" data-rating="{}" title="{}">{}</span>', name, standing.shown, title, standing.shown
    )


@register.simple_tag(takes_context=True)
def program_badge(context, user):
    """The BOT badge alone, for places that write the name themselves."""
    if user is None or isinstance(user, str) or user.pk not in _programs(context):
        return ""
    return render_to_string("ratings/_bot_badge.html")


@register.inclusion_tag("ratings/_profile_ratings.html")
def profile_ratings(player):
    """The profile's section on play per game: rating, its chart, won/lost rated and casual."""
    return {"player": player, "rows": per_game(player)}


@register.inclusion_tag("ratings/_play_now.html", takes_context=True)
def play_now(context):
    """The lobby's "Play now" card, or a way back to the waiting page for someone in the pool."""
    user = context.get("user")
    authenticated = getattr(user, "is_authenticated", False)
    return {
        "authenticated": authenticated,
        "waiting": authenticated and waiting(user) is not None,
        # Distinct ids: the lobby has other forms with the same fields.
        "form": PlayNowForm(auto_id="play_%s"),
    }


@register.inclusion_tag("ratings/_program_account.html", takes_context=True)
def program_account(context, player):
    """One's own profile: whether the account is a program's, and the form to mark it one."""
    return {"program": player.pk in _programs(context)}
