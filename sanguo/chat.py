"""Who reads and who writes which channel of a 三国 game's chat (docs/three-kingdoms-site.md#chat).

Channels, by the name a message stores (``Message.channel``):
- ``public``: every seat and the game master write, everyone who may see the game reads;
- ``spectators``: everyone else writes and reads; the seats do not read it until the end;
- ``gm:<seat>``: that seat and the game master;
- ``seats:<a>,<b>,…``: a group the rules let talk (ruling 6: a mutual-recognition group, a country
  after the reveal, a cross-country pair, each spanning two seats or more), named by its seats.

Which groups are open is the engine's ``view(state, seat)["channels"]`` of the current state, asked
again at every read and every post: nothing here stores a channel's members. A message keeps the
channel it was written to, and the seats of its name are the ones that read it. So when recognition
brings a seat into a group, the group's name changes (its seats grew): the newcomer reads the
group's lines from then on, not the talk from before it was there, which was not meant for it; the
older members read both, shown as one channel. The game master reads every channel; once the game
is over everyone reads everything, as in the match chat. While the game recruits there is only the
public channel, where everyone who may see the game (sign-ups, the game master, onlookers) writes.

A person's mutes are the match chat's (``game.chat``: one list, kept per person): the lines of
someone they muted, here or beside a match, are left out of what they read, and nobody else's.
"""
import hashlib
import hmac

from django.conf import settings
from django.db.models import Max
from django.utils.translation import gettext as _

from game.chat.models import MAX_LENGTH
from game.chat.service import muted_ids, muted_names
from game.games.three_kingdoms import engine

from .models import Game, Message

PUBLIC = "public"
SPECTATORS = "spectators"
GM = "gm"
ALL = "all"
# How many of a channel's newest lines a page shows.
SHOWN = 100


def gm_key(seat):
    return f"gm:{seat}"


def group_key(seats):
    return "seats:" + ",".join(str(s) for s in sorted(seats))


def ref(game_id, key):
    """The channel as the page's address names it (``?chat=``): not its name, whose seats would tell
    whoever reads an address (a log, a browser's history) who recognises whom."""
    message = f"sanguo-chat:{game_id}:{key}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()[:16]


def _number(text):
    return int(text) if text.isascii() and text.isdigit() and text == str(int(text)) else None


def group_seats(key):
    """The seats of a group channel's name, or None if ``key`` names no group."""
    if not key.startswith("seats:"):
        return None
    seats = [_number(part) for part in key[len("seats:"):].split(",")]
    if None in seats or len(seats) < 2 or seats != sorted(set(seats)):
        return None
    return frozenset(seats)


def gm_seat(key):
    return _number(key[len("gm:"):]) if key.startswith("gm:") else None


def well_formed(key, seat_count):
    """Whether ``key`` could name a channel of a game with ``seat_count`` seats (whoever is in it)."""
    if key in (PUBLIC, SPECTATORS):
        return True
    seat = gm_seat(key)
    if seat is not None:
        return seat < seat_count
    seats = group_seats(key)
    return seats is not None and max(seats) < seat_count


def may_read(key, audience):
    if audience in (GM, ALL) or key == PUBLIC:
        return True
    if key == SPECTATORS:
        return audience == "spectator"
    if not isinstance(audience, int):
        return False
    return gm_seat(key) == audience or audience in (group_seats(key) or ())


def open_groups(state, audience, view=None):
    """The group channels open now: a seat's own, every seat's for the game master and after the end."""
    if isinstance(audience, int):
        seats = {audience: view or engine.view(state, audience)}
    elif audience in (GM, ALL):
        seats = {seat: engine.view(state, seat) for seat in range(len(state["seat_names"]))}
    else:
        return []
    keys = [group_key(c["seats"]) for v in seats.values() for c in v["channels"] if "seats" in c]
    return sorted(set(keys), key=lambda k: (len(group_seats(k)), k))


def writable(row, audience, view=None):
    """The channels ``audience`` may write to now (the public one only while recruiting, none after
    the end)."""
    if row.status == Game.Status.RECRUITING:
        return [PUBLIC]
    if row.status != Game.Status.LIVE:
        return []
    if audience == GM:
        return [PUBLIC] + [gm_key(seat) for seat in range(len(row.state["seat_names"]))]
    if isinstance(audience, int):
        return [PUBLIC, gm_key(audience)] + open_groups(row.state, audience, view)
    return [SPECTATORS]


def reader(row, audience):
    """Whose reading ``audience`` is: everyone's once the game is over (seats and the game master too)."""
    return ALL if row.status == Game.Status.FINISHED else audience


def newest(row, audience):
    """``{channel: newest message id}`` over the channels ``audience`` reads: part of the socket's
    digest, so a line rings exactly the sockets of those who may read it."""
    audience = reader(row, audience)
    rows = Message.objects.filter(game=row).values_list("channel").annotate(newest=Max("pk"))
    return {key: top for key, top in sorted(rows) if may_read(key, audience)}


def _home(key, groups):
    """The open group a past group's lines are shown in: the smallest one holding all its seats
    (it grew into it), else its own (closed) channel."""
    seats = group_seats(key)
    holders = [g for g in groups if seats <= group_seats(g)]
    return holders[0] if holders else key


def _kind(key):
    return key if key in (PUBLIC, SPECTATORS) else GM if gm_seat(key) is not None else "group"


def _label(key, row, audience):
    names = row.state["seat_names"]
    if key == PUBLIC:
        return _("Public: everyone")
    if key == SPECTATORS:
        return _("Spectators")
    seat = gm_seat(key)
    if seat is not None:
        if audience == seat:
            return _("The game master (天庭)")
        return _("Seat %(seat)s (%(name)s) and the game master") % {"seat": seat, "name": names[seat]}
    return _("Group: %(names)s") % {"names": " · ".join(names[s] for s in sorted(group_seats(key)))}


def channels(row, audience, view=None):
    """The channels ``audience`` reads, in order, each ``{key, kind, label, keys, writable, closed}``:
    ``keys`` are the stored names whose lines it shows (a group's earlier, smaller names too);
    ``ref`` names it in the page's address."""
    audience = reader(row, audience)
    if row.status == Game.Status.RECRUITING:
        return [{"key": PUBLIC, "ref": ref(row.pk, PUBLIC), "kind": PUBLIC, "label": _("Public: everyone"),
                 "keys": [PUBLIC], "writable": True, "closed": False}]
    groups = open_groups(row.state, audience, view)
    may_write = set(writable(row, audience, view))
    listed = [PUBLIC]
    if audience in (GM, ALL):
        listed += [gm_key(seat) for seat in range(len(row.state["seat_names"]))]
    elif isinstance(audience, int):
        listed.append(gm_key(audience))
    listed += groups
    if audience in (GM, ALL, "spectator"):
        listed.append(SPECTATORS)
    shown = {key: {key} for key in listed}
    stored = Message.objects.filter(game=row, channel__startswith="seats:").values_list("channel", flat=True)
    for key in sorted(set(stored)):
        if may_read(key, audience) and group_seats(key) is not None:
            shown.setdefault(_home(key, groups), set()).add(key)
    closed = [key for key in shown if key not in listed]
    return [{"key": key, "ref": ref(row.pk, key), "kind": _kind(key), "label": _label(key, row, audience),
             "keys": sorted(shown[key]),
             "writable": key in may_write, "closed": key in closed}
            for key in listed + sorted(closed)]


def lines(row, keys, user):
    """The newest lines of the stored channels ``keys`` that ``user`` has not muted, oldest first."""
    rows = Message.objects.filter(game=row, channel__in=keys).exclude(user_id__in=muted_ids(user))
    rows = rows.select_related("user").order_by("-pk")[:SHOWN]
    mine = getattr(user, "pk", None)
    return [{"id": m.pk, "user": m.user.username, "text": m.text, "created": m.created,
             "mine": m.user_id == mine, "gm": m.user_id == row.gm_id} for m in reversed(rows)]


def panel(row, audience, user, chosen="", view=None):
    """The chat panel's context: the viewer's channels, the chosen one (its ``ref``; else the first),
    its lines and the names the viewer muted."""
    listed = channels(row, audience, view)
    current = next((c for c in listed if c["ref"] == chosen), listed[0])
    return {"channels": listed, "current": current, "lines": lines(row, current["keys"], user),
            "can_post": current["writable"] and getattr(user, "is_authenticated", False),
            "over": row.status == Game.Status.FINISHED, "max_length": MAX_LENGTH,
            "can_mute": getattr(user, "is_authenticated", False), "muted": muted_names(user)}
