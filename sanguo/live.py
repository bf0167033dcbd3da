"""The doorbell of a 三国 game: after each committed change, every socket on the game is told that
it may be behind. It carries no state and no events; each socket reads what its audience may see
(docs/three-kingdoms-site.md), as the match sockets do (game/live/groups.py)."""
import secrets

from game.live import groups


def game_group(game_id):
    return f"sanguo-{game_id}"


def ring(game_id, version):
    groups.send(game_group(game_id), {"type": "game.changed", "version": version, "ring": secrets.token_hex(8)})
