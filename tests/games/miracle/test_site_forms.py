"""The match page's forms: each frame stands for the engine command the board means, every
command the options offer can be sent as a form, and a bad frame is a ``BadForm`` (never an
exception of another kind)."""
import random

import pytest

from game.games.base import BadForm
from game.games.miracle.engine import apply, legal_commands, new_match, options
from game.games.miracle.forms import form_command

from .helpers import DECK_A, DECK_B, put, start


def cell(xyz):
    return ",".join(str(v) for v in xyz)


@pytest.mark.parametrize(
    ("frame", "command"),
    [
        ({"form": "deck", "artifact": "holy_light", "creatures": "archer,swordsman,priest"},
         {"deck": {"artifact": "holy_light", "creatures": ["archer", "swordsman", "priest"]}}),
        ({"form": "deck", "artifact": "wind_blessing", "creatures": ["archer", "priest", "black_bat"]},
         {"deck": {"artifact": "wind_blessing", "creatures": ["archer", "priest", "black_bat"]}}),
        ({"type": "form", "form": "summon", "creature": "archer", "level": "2", "at": "-6,8,-2"},
         {"summon": {"type": "archer", "level": 2, "at": [-6, 8, -2]}}),
        ({"form": "move", "unit": "3", "to": " -6, 7,-1"}, {"move": {"unit": 3, "to": [-6, 7, -1]}}),
        ({"form": "attack", "unit": "3", "target": "7"}, {"attack": {"unit": 3, "target": 7}}),
        ({"form": "attack", "unit": "3", "target": "miracle"}, {"attack": {"unit": 3, "target": "miracle"}}),
        ({"form": "artifact", "at": "0,0,0"}, {"artifact": {"at": [0, 0, 0]}}),
        ({"form": "artifact", "unit": "5", "at": ""}, {"artifact": {"unit": 5}}),
        ({"form": "end_turn"}, {"end_turn": {}}),
        ({"form": "surrender"}, {"surrender": {}}),
    ],
)
def test_each_form_stands_for_its_command(frame, command):
    assert form_command(frame) == command


@pytest.mark.parametrize(
    "frame",
    [
        {},
        {"form": "pick"},
        {"form": ["deck"]},
        {"form": "deck", "creatures": "archer,priest,swordsman"},
        {"form": "deck", "artifact": "holy_light"},
        {"form": "deck", "artifact": "holy_light", "creatures": ""},
        {"form": "deck", "artifact": "holy_light", "creatures": [1, 2, 3]},
        {"form": "summon", "creature": "archer", "level": "two", "at": "0,0,0"},
        {"form": "summon", "creature": "archer", "level": "1", "at": "0,0"},
        {"form": "summon", "creature": "archer", "level": "1", "at": "a,b,c"},
        {"form": "summon", "level": "1", "at": "0,0,0"},
        {"type": "form", "form": "summon", "level": "1", "at": "0,0,0"},
        {"form": "move", "unit": "1" * 5000, "to": "0,0,0"},
        {"form": "move", "unit": "1", "to": "9" * 5000 + ",0,0"},
        {"form": "move", "unit": None, "to": "0,0,0"},
        {"form": "attack", "unit": "1", "target": "the miracle"},
        {"form": "attack", "unit": "1"},
        {"form": "artifact"},
        {"form": "artifact", "at": {"x": 0}},
    ],
)
def test_a_bad_frame_is_refused_with_a_message(frame):
    with pytest.raises(BadForm) as refused:
        form_command(frame)
    assert refused.value.message


def frames_for(offered):
    """Every form frame the board builds from the options (the way its buttons fill them in)."""
    out = []
    for unit in offered.get("units", []):
        out += [{"form": "move", "unit": str(unit["unit"]), "to": cell(m["to"])} for m in unit["moves"]]
        out += [{"form": "attack", "unit": str(unit["unit"]), "target": str(t)} for t in unit["attacks"]]
    for summon in offered.get("summons", []):
        out += [{"form": "summon", "creature": summon["type"], "level": str(summon["level"]), "at": cell(at)}
                for at in summon["cells"]]
    artifact = offered.get("artifact")
    if artifact:
        out += [{"form": "artifact", "at": cell(at)} for at in artifact.get("cells", [])]
        out += [{"form": "artifact", "unit": str(u)} for u in artifact.get("units", [])]
    if offered.get("end_turn"):
        out.append({"form": "end_turn"})
    return out


def test_every_option_offered_is_a_form_for_a_legal_command():
    state = start(DECK_A, DECK_B)
    put(state, 0, "archer", 2, (-4, 4, 0))
    put(state, 1, "swordsman", 1, (-1, 4, -3))
    state.mana[0] = 10
    legal = legal_commands(state, 0)
    sent = [form_command(frame) for frame in frames_for(options(state, 0))]
    assert sent and all(command in legal for command in sent)
    # And nothing legal is missing from the board's forms, surrender aside.
    assert sorted(map(repr, sent)) == sorted(repr(c) for c in legal if "surrender" not in c)
    kinds = {next(iter(c)) for c in sent}
    assert kinds == {"move", "attack", "summon", "artifact", "end_turn"}


def test_a_whole_match_can_be_played_through_the_forms():
    rng = random.Random(3)
    state = new_match(3)
    for seat, deck in ((0, DECK_A), (1, DECK_B)):
        frame = {"form": "deck", "artifact": deck["artifact"], "creatures": ",".join(deck["creatures"])}
        state, _ = apply(state, seat, form_command(frame))
    while state.phase == "play" and state.turn < 12:
        seat = state.current
        state, _ = apply(state, seat, form_command(rng.choice(frames_for(options(state, seat)))))
    assert state.turn >= 12
