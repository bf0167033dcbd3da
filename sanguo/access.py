"""Who may look at a 三国 game, and as which audience: the page and the socket ask here."""
from game.games.three_kingdoms import engine

from . import chat
from .models import Game, Seat
from .services import actor_of


def may_see(row, user, token):
    """An invite-only game is seen with its invite token, or by its game master, co-GM and sign-ups."""
    if not row.private or (token and token == row.invite_token):
        return True
    user_id = getattr(user, "pk", None)
    if user_id is None:
        return False
    return user_id in (row.gm_id, row.co_gm_id) or Seat.objects.filter(game=row, user_id=user_id).exists()


def is_game_master(row, user):
    """The game master or their co-GM: who may take the game's whole data away (the record while it
    runs, the starter file), as they see it all on the console."""
    return actor_of(row, user) == "gm"


def may_download(row, user):
    """The record holds everything: its game master's and co-GM's at any time, everyone's once over."""
    return row.status == Game.Status.FINISHED or is_game_master(row, user)


def audience(row, user):
    """The engine's audience of ``user``: "gm", their seat, else a spectator — everyone once over."""
    actor = actor_of(row, user)
    if actor is not None:
        return actor
    return "all" if row.status == Game.Status.FINISHED else "spectator"


def digest(row, viewer):
    """What ``viewer`` (an audience) may see of the game now, as one comparable value: a socket tells
    its page to reload only when this changes, so a change the viewer may not see (another seat's
    submission) is not even a ring to them. The newest chat line of each channel they read is part
    of it: a line rings exactly the sockets of those who may read it."""
    if row.status == Game.Status.CANCELLED:
        return (row.status, row.updated.isoformat())
    if row.status == Game.Status.RECRUITING:
        return (row.status, row.updated.isoformat(), chat.newest(row, viewer))
    return (row.status, repr(engine.view(row.state, viewer)), chat.newest(row, viewer))
