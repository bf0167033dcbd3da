"""What the board highlights: the other side's last run of commands, until the viewer's next one.

A ``Trail`` reads the viewer's projected events version by version (the match page's log book
keeps one for the life of the socket, the replay one per viewer) and remembers the cells the most
recent run of one player's commands touched: where a creature was summoned, the path it moved
along, who attacked whom, what was hit, what died, where an artifact fell. A player's own command
clears it ("until your next action"); a spectator sees the latest run of either side.

It reads events only, never a view, so it can say no more than the log does.
"""
from .engine import board

# Kinds of mark, each drawn in its own way (miracle/css): also the order they stack in.
KINDS = ("path", "summon", "move", "attacker", "hit", "heal", "death", "artifact")


def _key(cell):
    return ",".join(str(v) for v in cell)


class Trail:
    def __init__(self, audience):
        self.audience = audience
        self.actor = None
        self.cells = {}
        self.paths = []
        self.where = {}
        self.camp = {}
        self.miracles = None

    def _mark(self, cell, kind):
        if cell is None:
            return
        kinds = self.cells.setdefault(_key(cell), [])
        if kind not in kinds:
            kinds.append(kind)

    def _actor(self, events):
        """The seat whose command made this version, or None (decks, a resignation)."""
        for event in events:
            kind = event["type"]
            if kind in ("summon", "move", "artifact", "turn_end"):
                return event["player"]
            if kind == "attack":
                return self.camp.get(event["unit"])
        return None

    def _track(self, event):
        """Keep each creature's cell and side, so a later event naming only its id can be placed."""
        kind = event["type"]
        if kind == "decks":
            side0 = event["first_mover"]
            self.miracles = {seat: board.coord(board.MIRACLE_CELL[0 if seat == side0 else 1]) for seat in (0, 1)}
        elif kind == "summon":
            self.where[event["unit"]] = event["at"]
            self.camp[event["unit"]] = event["player"]
        elif kind == "move":
            self.where[event["unit"]] = event["to"]

    def _place(self, event):
        if "miracle" in event:
            return self.miracles[event["miracle"]] if self.miracles else None
        return self.where.get(event.get("unit"))

    def read(self, events):
        """One version's projected events, in order."""
        actor = self._actor(events)
        if actor is not None and actor == self.audience:
            self.actor, self.cells, self.paths = None, {}, []
        elif actor is not None and actor != self.actor:
            self.actor, self.cells, self.paths = actor, {}, []
        for event in events:
            if actor is not None and actor != self.audience:
                self._note(event)
            self._track(event)
            if event["type"] == "death":
                self.where.pop(event["unit"], None)

    def _note(self, event):
        kind = event["type"]
        if kind == "summon":
            self._mark(event["at"], "summon")
        elif kind == "move":
            self._mark(event["from"], "path")
            for cell in event["path"][:-1]:
                self._mark(cell, "path")
            self._mark(event["to"], "move")
            self.paths.append([event["from"], *event["path"]])
        elif kind == "attack":
            self._mark(self.where.get(event["unit"]), "attacker")
        elif kind == "damage":
            self._mark(self._place(event), "hit")
        elif kind == "heal":
            self._mark(self._place(event), "heal")
        elif kind == "death":
            self._mark(self._place(event), "death")
        elif kind == "artifact":
            self._mark(event.get("at") or self.where.get(event.get("unit")), "artifact")

    def marks(self):
        """``{"player": seat or None, "cells": {"x,y,z": [kind, …]}, "paths": [[cell, …], …]}``."""
        return {"player": self.actor, "cells": {k: list(v) for k, v in self.cells.items()},
                "paths": [list(p) for p in self.paths]}
