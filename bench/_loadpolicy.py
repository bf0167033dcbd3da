"""How the benchmark's players choose a move: at random among the legal ones a ``state`` frame lists."""
from _loadscan import MIMIC, SPECIES

# Uniform play asserts on nearly every turn (48 of 49 assertion choices are guesses) and so ends
# rounds by assertion HP loss after a few turns; guessing a quarter of the time gives matches of
# realistic length, with the combat (the expensive part of the engine) in them.
GUESS_RATE = 0.25


def choose(frame, rng):
    """A random legal command from a state frame, or None when it is not this player's move."""
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
