"""The doorbell of a 三国 game: after each committed change, every socket on the game is told that
it may be behind. It carries no state and no events; each socket reads what its audience may see
(docs/three-kingdoms-site.md), as the match sockets do (game/live/groups.py). A lost doorbell (a
Redis restart forgets the groups) is made up for by the process's recheck (game/live/recheck.py),
which reads the games' versions as ``GAMES`` says."""
import secrets

from game.live import fanout, groups, recheck

from .models import Game


def game_group(game_id):
    return f"sanguo-{game_id}"


def ring(game_id, version):
    groups.send(game_group(game_id), {"type": "game.changed", "version": version, "ring": secrets.token_hex(8)})


def read_versions(game_ids):
    """{game id: (version,)}, read in one query."""
    return {pk: (version,) for pk, version in Game.objects.filter(pk__in=game_ids).values_list("pk", "version")}


GAMES = recheck.Followed(game_group, read_versions, "game.changed")


class Watched:
    """A socket on one game that the recheck rings when the game's version has moved past the one it
    last read (``last_sent``, None until it has read one) and its doorbell did not come."""

    followed = GAMES
    last_sent = None

    @property
    def followed_id(self):
        return self.game_id

    def is_behind(self, version):
        return self.last_sent is not None and version != self.last_sent

    async def dispatch(self, message):
        # A channel layer that fails under a handler (Redis is down) closes the socket, to be
        # retried: the page and programs reconnect and read what they missed.
        try:
            await super().dispatch(message)
        except recheck.LAYER_DOWN:
            await recheck.close_to_retry(self, message)


async def read_after(game_id, message, read):
    """``read(row)`` on the database thread, ``row`` being the game as read after ``message`` (a
    doorbell) was heard: read once for all the sockets of this process that heard the same ring
    before the database thread took their call up (``fanout.together``), None if there is no such
    game. Every one of them heard its ring before that read was made, so it is as new as a read of
    their own. A 27-seat game made 27 reads of its row, state and all, per change."""

    def call(shared):
        if "row" not in shared:
            shared["row"] = Game.objects.filter(pk=game_id).first()
        return read(shared["row"])

    return await fanout.together(("sanguo", game_id, message.get("ring")), call)
