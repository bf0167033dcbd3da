"""One seat's side of the contest protocol, with no I/O: our frames in, the program's messages out.

It remembers what the official SDK expects to be told again (the last assertions and actions,
which the official program did not clear between rounds) and keeps the board as the seat last saw
it, advanced by each version's events, so an action's ActionInfo is built from the board as it
stood when the action began. Everything it reads is re-projected for the seat: a version that ends
the match arrives unredacted (the match is over), and the program is told the same either way.
"""
import copy

from ..engine import project
from ..engine.species import MIMIC

from . import sdk
from .actioninfo import action_info

START_HP, START_ATK = 400, 100


def _fresh_fish(species=None, mimic=None):
    return {"fish": species, "hp": START_HP, "atk": START_ATK if species else None, "alive": True,
            "revealed": False, "mimic_of": mimic if species == MIMIC else None,
            "skill_uses": 0 if species else None}


class Translator:
    def __init__(self, seat):
        self.seat = seat
        self.teams = [[], []]
        self.my_pick = None
        # None until the first of each: the SDK reads a null as "nothing yet".
        self.last = {"enemy_assert": None, "enemy_action": None, "my_action": None, "my_assert": None}
        # The state version whose decision the program was last asked for (one question per decision).
        self.asked = None

    def sync(self, view):
        """The board as a ``state`` or ``snapshot`` frame shows it (newer than any version seen)."""
        if view is not None:
            self.teams = copy.deepcopy(view["teams"])

    def absorb(self, events):
        """One version's events; returns the Finish message when they end a round, else None."""
        events = project(events, self.seat)
        operation = next((e for e in events if e["type"] in ("pick", "assert", "assert_skip", "action")), None)
        if operation is not None and operation["type"] == "action":
            info = action_info(events[events.index(operation):], self.seat, {"teams": self.teams})
            self.last["my_action" if operation["player"] == self.seat else "enemy_action"] = info
        elif operation is not None and operation["type"] != "pick":
            info = sdk.assert_info(operation)
            self.last["my_assert" if operation["player"] == self.seat else "enemy_assert"] = info
        for event in events:
            self._advance(event)
        ended = next((e for e in events if e["type"] == "round_end"), None)
        if ended is None or operation is None:
            return None
        return sdk.finish_message(
            won=ended["winner"] == self.seat,
            turn_limit=ended["reason"] == "turn_limit",
            last=self.last,
            ended_by_me=operation["player"] == self.seat,
            in_assertion=operation["type"] != "action",
        )

    def _advance(self, event):
        kind = event["type"]
        if kind == "pick" and event["player"] == self.seat:
            self.my_pick = event
        elif kind == "round_start" and self.my_pick is not None:
            mine = [_fresh_fish(s, self.my_pick["mimic"]) for s in self.my_pick["fish"]]
            self.teams = [None, None]
            self.teams[self.seat], self.teams[1 - self.seat] = mine, [_fresh_fish() for _ in mine]
        elif kind in ("hp_loss", "damage", "heal"):
            self.teams[event["side"]][event["pos"]]["hp"] = event["hp"]
        elif kind == "death":
            self.teams[event["side"]][event["pos"]].update(alive=False, hp=0)
        elif kind == "atk":
            self.teams[event["side"]][event["pos"]]["atk"] = event["atk"]
        elif kind == "assert" and event["success"]:
            self.teams[1 - event["player"]][event["target"]].update(revealed=True, fish=event["fish"])
        elif kind == "action" and event["player"] == self.seat and event["kind"] == "skill":
            self.teams[self.seat][event["actor"]]["skill_uses"] += 1

    def due(self, frame):
        """``(kind, message)`` the program must answer for this ``state`` frame, or None.

        ``kind``: "pick", "assert" or "act". Asked once per decision: a frame repeating the same
        version (a catch-up, say) asks nothing again.
        """
        if frame["status"] != "live" or frame["version"] == self.asked:
            return None
        view = frame["view"]
        if frame["pick"]:
            kind, message = "pick", sdk.pick_message(view, self.seat)
        elif not frame["legal"]:
            return None
        elif view["phase"] == "assert":
            kind, message = "assert", sdk.assert_message(view, self.seat, self.last)
        else:
            kind, message = "act", sdk.action_message(view, self.seat, self.last["my_assert"])
        self.asked = frame["version"]
        return kind, message

    def command(self, kind, answer, frame):
        """Our command for the program's ``answer``; ``sdk.AnswerError`` when it is no move."""
        if kind == "pick":
            return sdk.pick_command(answer)
        if kind == "assert":
            return sdk.assert_command(answer)
        return sdk.action_command(answer, frame["view"], self.seat)
