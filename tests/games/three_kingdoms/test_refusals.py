"""Bad input gets a clear refusal and changes nothing: any command body, from any seat, either
applies or raises ``IllegalCommand`` — never another exception."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.games.three_kingdoms.engine import IllegalCommand, apply, view
from game.games.three_kingdoms.engine.rules import GM_COMMANDS, SEAT_COMMANDS, SERVER_COMMANDS, new_match

from .helpers import game, until

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.floats(allow_nan=False),
                    st.sampled_from(["夏侯惇", "曹操", "司马朗", "魏", "yes", "call", "group", "skill", "target"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(["actor", "voter", "target", "targets", "skill", "index", "names", "killer", "country",
                     "decision", "choice", "text", "call", "effects", "reason", "what", "follow", "scatter",
                     "countries", "on", "defended", "id", "wound", "kill", "recognise", "skills", "successors",
                     "characters", "durations", "identifications", "natural_deaths", "action", "join", "rolls",
                     "set", "kind", "roll", "outcome", "chance", "pick", "among", "odds", "for", "against", "good",
                     "then", "else", "label", "count", "before"]), inner, max_size=4),
    max_leaves=8)
KINDS = st.sampled_from(SEAT_COMMANDS + GM_COMMANDS + SERVER_COMMANDS + ("bogus",))
SEATS = st.sampled_from([0, 1, 2, 3, -1, "gm", "server", "x", True, None])
STATES = {}


def state_at(where):
    if where not in STATES:
        state = game()
        STATES[where] = state if where == "night" else until(state, "day_vote", 1)[0]
    return STATES[where]


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.sampled_from(["night", "vote"]), SEATS, KINDS, VALUES, st.one_of(st.none(), SCALARS))
def test_any_command_applies_or_is_refused_cleanly(where, seat, kind, body, at):
    state = state_at(where)
    before = json.dumps(state, sort_keys=True)
    command = {kind: body} if at is None else {kind: body, "at": at}
    try:
        apply(state, seat, command)
    except IllegalCommand as refusal:
        assert refusal.code and refusal.message
    assert json.dumps(state, sort_keys=True) == before, "apply without in_place never changes its input"


def test_the_all_audience_is_refused_until_the_game_is_over():
    """The issue's ``all`` is for replays after the end: during play it would show every ID."""
    state = game()
    with pytest.raises(IllegalCommand) as refusal:
        view(state, "all")
    assert refusal.value.code == "not_over"
    state, _ = apply(state, "gm", {"draw": {"reason": "test"}})
    assert {c["id"] for c in view(state, "all")["characters"]} == set(range(1, 28))


OVERRIDE_PARTS = st.dictionaries(st.sampled_from(["effects", "action", "join", "rolls", "drop", "deadline"]), VALUES,
                                 max_size=3)
SHAPED = st.fixed_dictionaries({"id": st.integers(-1, 30), "kind": st.sampled_from(
    ["assassinate", "skill", "identify", "reassign", "request", "vote", "x"]), "set": VALUES, "index": VALUES})


IDS = st.integers(0, 30)
PAIRS = st.tuples(st.integers(-1, 3), st.integers(-1, 3)).map(list)
CHANCE = st.fixed_dictionaries({"for": IDS, "odds": PAIRS | VALUES}, optional={
    "against": IDS | VALUES, "label": VALUES, "then": st.just([{"wound": "for"}]) | VALUES, "else": VALUES})
PICK = st.fixed_dictionaries({"among": st.lists(IDS, max_size=4) | VALUES, "good": st.booleans() | VALUES}, optional={
    "count": st.integers(-1, 4) | st.sampled_from([None, "1", 1.5, True]), "label": VALUES, "then": st.just([{"wound": "picked"}]) | VALUES})
JUDGEMENTS = st.lists(st.one_of(CHANCE.map(lambda b: {"chance": b}), PICK.map(lambda b: {"pick": b})), max_size=2)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.sampled_from(["night", "vote"]), OVERRIDE_PARTS, SHAPED, st.lists(VALUES, max_size=2), JUDGEMENTS)
def test_any_override_applies_or_is_refused_cleanly(where, parts, action, rolls, judgements):
    """The GM's overrides take nested free-form parts: none may raise anything but a refusal."""
    state = state_at(where)
    before = json.dumps(state, sort_keys=True)
    for body in (parts, {"action": action}, {"rolls": rolls}, {"join": action}, {"effects": judgements}):
        try:
            apply(state, "gm", {"override": {"reason": "fuzz", **body}})
        except IllegalCommand as refusal:
            assert refusal.code and refusal.message
    assert json.dumps(state, sort_keys=True) == before


SKILL = {"name": "奇袭", "owner": "夏侯惇", "timing": "结算时", "targets": 1}
SPOTTING = {"kind": "同国", "count": 1, "names": ["曹操"]}


@pytest.mark.parametrize("part, value", [
    ("skills", [dict(SKILL, text=["a list"])]),
    ("skills", [dict(SKILL, outside="yes")]),
    ("skills", [dict(SKILL, extra=1)]),
    ("skills", [dict(SKILL, cooldown=2)]),
    ("identifications", {"夏侯惇": [dict(SPOTTING, mutual=5)]}),
    ("identifications", {"夏侯惇": [dict(SPOTTING, mutual=["无名氏"])]}),
    ("identifications", {"夏侯惇": [dict(SPOTTING, passive={"name": "x"})]}),
    ("identifications", {"夏侯惇": [dict(SPOTTING, passive=" ")]}),
    ("identifications", {"夏侯惇": [dict(SPOTTING, evaluation="猛将")]}),
    ("identifications", {"夏侯惇": [{"kind": "评价", "count": 1}]}),
    ("identifications", {"夏侯惇": [{"kind": "评价", "count": 1, "evaluation": "天才"}]}),
    ("identifications", {"夏侯惇": [{"kind": "评价", "count": 1, "evaluation": "猛将", "identity": "君主"}]}),
    ("identifications", {"夏侯惇": [dict(SPOTTING, hint="x")]}),
])
def test_game_data_of_the_wrong_shape_is_refused_at_setup_not_at_a_later_night(part, value):
    """A field the engine reads later (a mutual list at the identification's hit, a passive's name at
    its trigger, a 评价's evaluation at the feedback) is checked when the data is given: accepted, a
    wrong type would break that night's close; the refusal changes nothing."""
    state = new_match(1)
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalCommand) as refusal:
        apply(state, "gm", {"setup": {part: value}})
    assert refusal.value.code == "bad_setup"
    assert json.dumps(state, sort_keys=True) == before


def test_the_data_the_checks_refuse_in_one_shape_they_accept_in_the_right_one():
    state, _events = apply(new_match(1), "gm", {"setup": {
        "skills": [dict(SKILL, text="奇袭一人", outside=True, extra=False)],
        "identifications": {"夏侯惇": [dict(SPOTTING, mutual=["曹操"], passive="奇袭", before=True),
                                       {"kind": "评价", "count": 1, "evaluation": "猛将"},
                                       {"kind": "评价", "count": 1, "identity": "君主"}]}}})
    assert state["data"]["identifications"]["夏侯惇"][0]["passive"] == "奇袭"
