"""The board's highlight of the other side's last turn (``game.games.miracle.marks.Trail``)."""
import random

from game.games.miracle import engine
from game.games.miracle.engine.randomplay import random_command
from game.games.miracle.marks import Trail

DECK = {"deck": {"artifact": "wind_blessing", "creatures": ["swordsman", "archer", "black_bat"]}}


def key(cell):
    return ",".join(map(str, cell))


def started(seed=7):
    state = engine.new_match(seed, first_mover=0)
    versions = []
    for seat in (0, 1):
        state, events = engine.apply(state, seat, DECK)
        versions.append(events)
    return state, versions


def feed(trails, events):
    for audience, trail in trails.items():
        trail.read(engine.project(events, audience))


def test_the_opponents_turn_stays_marked_until_the_viewers_own_next_command():
    state, versions = started()
    trails = {a: Trail(a) for a in (0, 1, "spectator")}
    for events in versions:
        feed(trails, events)
    summon = next(c for c in engine.legal_commands(state, 0) if "summon" in c)
    state, events = engine.apply(state, 0, summon)
    feed(trails, events)
    cell = key(summon["summon"]["at"])
    assert trails[1].marks()["cells"] == {cell: ["summon"]}
    assert trails["spectator"].marks()["player"] == 0
    assert trails[0].marks()["cells"] == {}  # one's own command is never highlighted

    state, events = engine.apply(state, 0, {"end_turn": {}})
    feed(trails, events)
    assert cell in trails[1].marks()["cells"], "the turn stays marked after it ends"
    state, events = engine.apply(state, 1, {"end_turn": {}})
    feed(trails, events)
    assert trails[1].marks()["cells"] == {}, "cleared by the viewer's own next command"
    assert trails["spectator"].marks()["player"] == 1


def test_a_move_marks_its_path_and_a_hit_marks_the_target():
    state, versions = started(11)
    trail = Trail(1)
    for events in versions:
        trail.read(engine.project(events, 1))
    rng = random.Random(3)
    seen_move = seen_hit = False
    while state.phase == "play" and not (seen_move and seen_hit):
        seat = engine.to_move(state)[0]
        command = random_command(state, seat, rng)
        state, events = engine.apply(state, seat, command)
        trail.read(engine.project(events, 1))
        if seat != 0:
            continue
        cells = trail.marks()["cells"]
        for event in events:
            if event["type"] == "move":
                seen_move = True
                assert "move" in cells[key(event["to"])] and "path" in cells[key(event["from"])]
                assert trail.marks()["paths"][-1] == [event["from"], *event["path"]]
            if event["type"] == "damage" and "unit" in event and event["kind"] == "attack":
                seen_hit = True
                assert any("hit" in kinds for kinds in cells.values())
    assert seen_move and seen_hit
