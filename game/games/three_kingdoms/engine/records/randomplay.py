"""Random play with an automatic game master: the source of games for the property tests, the
benchmark and ``play``. The GM answers every decision with its default (the rules' default or
"no effect"); seats send random legal commands; the server closes each phase at its deadline.

The players draw from their own ``random.Random``, never from the match's generator, so a record
(seed + commands) replays the same game whatever policy made it.
"""
from __future__ import annotations

import random

from ....engines.errors import IllegalCommand
from ..gm.decisions import default_answer
from ..legal import concrete, legal_commands
from .record import make_record
from ..rules import apply, new_match
from ..state import GM, SERVER, seats

# A game that has not ended by this night is declared a draw by the automatic GM (ruling 41:
# "由天庭判定游戏为和局"), so random play always ends.
STALEMATE_NIGHT = 40
# Rare on purpose: drawn like the other kinds, they would end most random games at once.
RARE = {"peace": 0.01, "suicide": 0.03}
# GM data for random games: the seed's successor hints (ruling 37) and one skill of each class
# whose default effects exercise the engine's paths (damage queued in 结算时 after a server
# judgement, heals by day, a random pick), and 张辽's passive in the 结算前 order on odd seeds.
SUCCESSORS = {"徐庶": ["诸葛亮"], "荀彧": ["荀攸"], "郭嘉": ["刘晔"], "赵云": ["魏延"]}
DEFAULT_EFFECTS = {"结算时": [{"chance": {"for": "actor", "against": "target", "odds": [1, 2],
                                        "then": [{"kill": "target"}], "else": [{"wound": "target"}]}}],
                   "白天受伤判定": [{"heal": "target"}],
                   "结算后": [{"pick": {"among": ["actor", "target"], "good": True,
                                       "then": [{"feedback": "picked", "text": "技能已结算"}]}}]}


def random_setup(state, rng):
    """A ``setup`` command for a random game: chains, and eight skills given to random characters."""
    owners = [s["chain"][0] for s in state["slots"]]
    skills = [dict(k) for k in state["data"]["skills"]]
    for index, timing in enumerate(("立刻", "预结算前", "全局", "结算前", "结算前", "结算时", "结算后", "白天受伤判定",
                                    "白天行动投票")):
        skills.append({"name": f"技{index}", "owner": rng.choice(owners), "timing": timing, "targets": 1,
                       "rank": rng.randint(1, 11), "text": "", "effects": DEFAULT_EFFECTS.get(timing, [])})
    identifications = {name: [dict(i, before=rng.random() < 0.5) if i.get("passive") else i for i in specs]
                       for name, specs in state["data"]["identifications"].items()}
    return {"setup": {"skills": skills, "successors": SUCCESSORS, "identifications": identifications}}


class Player:
    """Drives one game: ``step`` sends one command and returns ``(seat, command, events)``."""

    def __init__(self, seed, mode="standard", characters=27, *, in_place=False, on_apply=None):
        self.rng = random.Random(seed)
        self.state = new_match(seed, mode, characters)
        self.commands = []
        self.in_place = in_place
        self.on_apply = on_apply or apply
        self.queue = []

    def send(self, seat, command):
        self.state, events = self.on_apply(self.state, seat, command, in_place=self.in_place)
        self.commands.append({"seat": seat, **command})
        return events

    def _plan_phase(self):
        """Each seat's random commands for the phase just opened, sent in a shuffled order."""
        plan = []
        for seat in seats(self.state):
            for _ in range(self.rng.randint(0, 4)):
                plan.append(seat)
        self.rng.shuffle(plan)
        self.queue = plan

    def step(self):
        state = self.state
        for decision in state["pending"]:
            if decision["for"] == GM:
                return GM, self.send(GM, {"at": state["clock"], **default_answer(decision)})
        if state["phase"] == "setup" and not self.commands:
            return GM, self.send(GM, {"at": 0, **random_setup(state, self.rng)})
        if state["phase"] == "setup":
            events = self.send(GM, {"at": 0, "lock": {}})
            self._plan_phase()
            return GM, events
        if state["night"] >= STALEMATE_NIGHT:
            return GM, self.send(GM, {"draw": {"reason": "stalemate"}})
        while self.queue:
            seat = self.queue.pop()
            command = self.choose(legal_commands(state, seat))
            command = command and concrete(command, self.rng)
            if command:
                try:
                    return seat, self.send(seat, {"at": state["clock"], **command})
                except IllegalCommand:
                    continue
        due = state["revision"]["until"] if state.get("revision") else state["deadline"]
        events = self.send(SERVER, {"at": max(due, state["clock"]), "close": {}})
        self._plan_phase()
        return SERVER, events

    def choose(self, options):
        """A kind drawn uniformly among those offered (the rare ones seldom), then one of its commands."""
        by_kind = {}
        for command in options:
            by_kind.setdefault(next(iter(command)), []).append(command)
        kinds = [k for k in sorted(by_kind) if self.rng.random() < RARE.get(k, 1)]
        return self.rng.choice(by_kind[self.rng.choice(kinds)]) if kinds else None

    def play(self):
        while self.state["phase"] != "over":
            self.step()
        return self.state


def play_random_game(seed, mode="standard", characters=27):
    """A random game to its end; returns ``(record, final state)``."""
    player = Player(seed, mode, characters)
    player.play()
    return make_record(seed, mode, characters, player.commands), player.state
