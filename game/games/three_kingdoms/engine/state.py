"""The match state: one JSON-ready dict (so its round trip is exact by construction), the seeded
generator kept in it, and the small lookups every rules module uses.

IDs are 1..N; ``slots[id - 1]`` is the ID's slot: its chain of characters (the holder and the
successors the game master gave, ruling 37), country, identity, rank, status and controller (a
human seat, or None for a bot-played 在野). Seats are 0..n-1 for the humans, ``"gm"`` and
``"server"``.
"""
from __future__ import annotations

import json

from ...engines.rng import MASK64, splitmix64
from . import roster

PHASES = ("night_action", "night_resolution", "night_feedback", "day_wound", "day_vote", "day_feedback")
NIGHT_PHASES = PHASES[:3]
MODES = ("standard", "solo", "nine", "crowd")
GM = "gm"
SERVER = "server"
# Ruling 12: GM-set, changeable; these are the defaults until it sets them (seconds).
DEFAULT_DURATIONS = {"night_action": 43200, "night_resolution": 3600, "night_feedback": 3600, "day_wound": 3600,
                     "day_vote": 28800, "day_feedback": 1800}
IMMEDIATE_CUTOFF = 600
# Statuses of an ID: in play (normal, wounded, outside = 游戏外) or left (退出游戏, for good).
IN_PLAY = ("normal", "wounded", "outside")

# 王侯将相局 (ruling 3): seat of each initial character, in roster order per country.
_NINE = {"蜀": (0, 1, 0, 1, 1, 2, 0), "魏": (3, 3, 5, 4, 4, 5, 5), "吴": (6, 6, 8, 7, 7, 8, 8)}


def rand_below(state, n):
    """A uniform draw in [0, n) from the match's generator (SplitMix64; the modulo bias is < 2**-58)."""
    state["rng"], value = splitmix64(state["rng"])
    return value % n


def shuffle(state, items):
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = rand_below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def _controllers(mode, free):
    """{character: seat or None} and the seats' names, for the mode (rulings 1–4)."""
    control, names = {}, []
    if mode == "crowd":
        for name in [n for c in roster.COUNTRIES for n in roster.INITIAL[c]] + free:
            control[name] = len(names)
            names.append(name)
        return control, names
    if mode == "nine":
        for country in ("蜀", "魏", "吴"):
            for name, seat in zip(roster.INITIAL[country], _NINE[country]):
                control[name] = seat
        names = ["蜀·君主副军师女眷", "蜀·主军师双杀", "蜀·赵云", "魏·君主主军师", "魏·双杀", "魏·副军师护卫女眷",
                 "吴·君主主军师", "吴·双杀", "吴·副军师护卫女眷"]
    else:
        for seat, country in enumerate(roster.COUNTRIES):
            for name in roster.INITIAL[country]:
                control[name] = seat
        names = list(roster.COUNTRIES)
        if mode == "solo":
            control[roster.ZHAO_YUN] = 3
            names = ["魏", "蜀(赵云除外)", "吴", "赵云"]
    for name in free:
        control[name] = None
    return control, names


def new_state(seed, mode, size):
    state = {"seed": seed, "rng": seed & MASK64, "mode": mode, "size": size}
    others = shuffle(state, roster.FREE_POOL)[: roster.FREE_COUNT[size] - 1]
    free = [roster.FIXED_FREE] + others
    initial = roster.initial_characters()
    everyone = [n for c in roster.COUNTRIES for n in roster.INITIAL[c]] + free
    ids = shuffle(state, range(1, len(everyone) + 1))
    control, seat_names = _controllers(mode, free)
    slots = [None] * len(everyone)
    for name, ident in zip(everyone, ids):
        facts = initial.get(name, {"country": None, "identity": None, "rank": None})
        slots[ident - 1] = {"id": ident, "chain": [name], "holder": 0, "country": facts["country"],
                            "initial_country": facts["country"] or roster.FREE, "identity": facts["identity"],
                            "rank": facts["rank"], "status": "normal", "controller": control[name], "wound": None,
                            "immediate": False, "luck": None}
    state.update({
        "seat_names": seat_names, "free": free, "slots": slots, "dead": [], "unrevivable": [],
        "phase": "setup", "night": 0, "clock": 0, "deadline": None, "steps": [], "locked": False, "revision": None,
        "recognition": [], "hidden_recognition": [], "known": {str(s): {} for s in range(len(seat_names))},
        "subs": {}, "day_skill_used": [], "ballots": [], "ballot_log": {}, "public_ballots": {},
        "public_ids": {str(i): {"left": False, "wounded": False} for i in range(1, len(everyone) + 1)},
        "calls": {c: [] for c in roster.COUNTRIES},
        "pending": [], "next_key": 1, "seq": 0,
        "countries": {c: {"destroyed": False, "reassign_used": False, "seats_used": 0, "no_advisor_from": None,
                          "monarch_dead": False, "regent": None} for c in roster.COUNTRIES},
        "offers": [], "joins": [], "hurt_by": {}, "alliances": [], "peace": {"half": None, "countries": []},
        "night_report": {"deaths": [], "wounds": [], "last_words": [], "texts": []},
        "feedback": {}, "announcements": [], "winner": None, "end_reason": None, "log": [],
    })
    return state


def copy(state):
    return json.loads(json.dumps(state))


def to_json(state):
    return copy(state)


def from_json(data):
    return copy(data)


# ---- lookups ----------------------------------------------------------------------------------

def slot(state, ident):
    return state["slots"][ident - 1]


def holder(s):
    return s["chain"][s["holder"]]


def in_play(s):
    return s["status"] in IN_PLAY


def slot_of(state, name):
    """The slot whose current holder is ``name``, or None (not in the game, dead or not yet on)."""
    for s in state["slots"]:
        if holder(s) == name and in_play(s):
            return s
    return None


def seats(state):
    return range(len(state["seat_names"]))


def country_slots(state, country):
    return [s for s in state["slots"] if s["country"] == country]


def phase_key(state, night=None, phase=None):
    """A comparable stamp of a phase: night N's phases come before day N's, which come before night N+1."""
    night = state["night"] if night is None else night
    phase = state["phase"] if phase is None else phase
    return night * 10 + (PHASES.index(phase) if phase in PHASES else 0)


def next_seq(state):
    state["seq"] += 1
    return state["seq"]


def event(event_type, to="public", **fields):
    """An event; ``to`` is "public", "gm" or a list of seats (the game master sees every event)."""
    return {"type": event_type, "to": to, **fields}
