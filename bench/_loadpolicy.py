"""How the benchmark's players choose a move: at random among the legal ones a ``state`` frame offers.

Aquawar's frames list every legal command (``legal``, ``pick``); 神迹之战's give the compact
``options`` (per unit its moves and attacks, per summon its cells, the artifact's targets,
``end_turn``), from which ``choose_miracle`` builds one command.
"""
from _loadscan import MIMIC, SPECIES

# Uniform play asserts on nearly every turn (48 of 49 assertion choices are guesses) and so ends
# rounds by assertion HP loss after a few turns; guessing a quarter of the time gives matches of
# realistic length, with the combat (the expensive part of the engine) in them.
GUESS_RATE = 0.25

# 神迹之战: a unit that can hit the enemy miracle does; otherwise a turn is a few commands (mostly
# marching on the enemy miracle and attacking, some summons, now and then the artifact) before
# ``end_turn``. Uniform choice among every legal command would mostly shuffle units back and forth.
# With these shares a match takes about 120-600 commands (median near 480 over 30 seeds), a
# third of them ending with a miracle destroyed and the rest at the turn limit.
MIRACLE_SHARES = (("attack", 0.3), ("summon", 0.15), ("move", 0.4), ("artifact", 0.05))


def choose(frame, rng):
    """A random legal command from a state frame, or None when it is not this player's move."""
    if "options" in frame:
        return choose_miracle(frame.get("options") or {}, (frame.get("view") or {}).get("miracles"), rng)
    seen = frame.get("view")
    if not seen:
        return None
    if seen["phase"] == "pick":
        options = frame.get("pick")
        if not options:
            return None
        fish = rng.sample(options["species"], options["count"])
        command = {"pick": fish}
        if MIMIC in fish:
            command["mimic"] = rng.choice([s for s in SPECIES if s != MIMIC])
        return command
    legal = frame.get("legal") or []
    if not legal:
        return None
    if seen["phase"] == "assert":
        guesses = [c for c in legal if c.get("assert") is not None]
        if guesses and rng.random() < GUESS_RATE:
            return rng.choice(guesses)
        return {"assert": None}
    return rng.choice(legal)


def choose_miracle(options, miracles, rng):
    """A 神迹之战 command from the seat's ``options`` (``miracles``: the view's two miracle cells);
    never a surrender (always on offer, it would end the match at once), None while the seat has
    nothing else to do. Units march on the enemy miracle, so that matches end before the turn limit."""
    deck = options.get("deck")
    if deck:
        return {"deck": {"artifact": rng.choice(deck["artifacts"]),
                         "creatures": rng.sample(deck["creatures"], deck["count"])}}
    if not options.get("end_turn"):
        return None
    units = options.get("units") or []
    at_miracle = [u["unit"] for u in units if "miracle" in u["attacks"]]
    if at_miracle:
        return {"attack": {"unit": rng.choice(at_miracle), "target": "miracle"}}
    possible = {
        "attack": [{"attack": {"unit": u["unit"], "target": t}} for u in units for t in u["attacks"]],
        "summon": [{"summon": {"type": s["type"], "level": s["level"], "at": cell}}
                   for s in options.get("summons") or [] for cell in s["cells"]],
        "move": _marches(units, miracles, options.get("summons") or [], rng),
        "artifact": _artifact_commands(options.get("artifact")),
    }
    roll = rng.random()
    for kind, share in MIRACLE_SHARES:
        if roll < share and possible[kind]:
            return rng.choice(possible[kind])
        roll -= share
    return {"end_turn": {}}


def _distance(a, b):
    return max(abs(p - q) for p, q in zip(a, b))


def _marches(units, miracles, summons, rng):
    """One random unit's move that brings it closest to the enemy miracle: the miracle farther from
    what the seat holds (its units and its spawn cells)."""
    movable = [u for u in units if u["moves"]]
    if not movable or not miracles:
        return []
    held = [u["at"] for u in units] + [cell for s in summons for cell in s["cells"]]
    enemy = max(miracles, key=lambda m: min(_distance(m, cell) for cell in held))
    unit = rng.choice(movable)
    best = min(unit["moves"], key=lambda m: (_distance(m["to"], enemy), rng.random()))
    return [{"move": {"unit": unit["unit"], "to": best["to"]}}]


def _artifact_commands(artifact):
    if not artifact:
        return []
    return ([{"artifact": {"unit": u}} for u in artifact.get("units") or []]
            + [{"artifact": {"at": c}} for c in artifact.get("cells") or []])
