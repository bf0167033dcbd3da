"""Games in a known state for the 三国 engine's tests: IDs are drawn, so tests find them by name."""
from game.games.three_kingdoms.engine import apply
from game.games.three_kingdoms.engine.gm.decisions import default_answer
from game.games.three_kingdoms.engine.rules import new_match
from game.games.three_kingdoms.engine.state import holder, slot_of


def game(mode="standard", characters=27, seed=1, setup=None):
    """A locked game at night 1's 夜晚行动 (clock 0), with ``setup`` as the GM's data if given."""
    state = new_match(seed, mode, characters)
    if setup:
        state, _ = apply(state, "gm", {"setup": setup})
    state, _ = apply(state, "gm", {"at": 0, "lock": {}})
    return state


def id_of(state, name):
    return slot_of(state, name)["id"]


def seat_of(state, name):
    return slot_of(state, name)["controller"]


def act(state, name, kind, **body):
    """The command ``kind`` sent by the seat controlling ``name`` (as actor, or voter for votes)."""
    key = "voter" if kind == "vote" else "actor"
    return apply(state, seat_of(state, name), {"at": state["clock"], kind: {key: name, **body}})


def resolve_gm(state, events=None, answer=default_answer):
    """Answer every pending GM decision with ``answer`` (the automatic GM's default by default)."""
    events = [] if events is None else events
    while any(d["for"] == "gm" for d in state["pending"]):
        decision = next(d for d in state["pending"] if d["for"] == "gm")
        state, produced = apply(state, "gm", {"at": state["clock"], **answer(decision)})
        events += produced
    return state, events


def close(state, events=None):
    """Close the current phase at its deadline, the GM answering with defaults."""
    events = [] if events is None else events
    state, events = resolve_gm(state, events)
    state, produced = apply(state, "server", {"at": state["deadline"], "close": {}})
    events += produced
    return resolve_gm(state, events)


def until(state, phase, night, events=None):
    """Close phases until ``phase`` of ``night`` is open."""
    events = [] if events is None else events
    while not (state["phase"] == phase and state["night"] == night):
        assert state["phase"] != "over", "the game ended first"
        state, events = close(state, events)
    return state, events


def names_by_identity(state, country, identity, rank=None):
    return [holder(s) for s in state["slots"]
            if s["country"] == country and s["identity"] == identity and (rank is None or s["rank"] == rank)]
