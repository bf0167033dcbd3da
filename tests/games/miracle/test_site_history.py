"""The history's facts and the summary's series of a finished 神迹之战 match agree with the engine's
own final state, turn by turn."""
import random

from game.games.miracle import engine
from game.games.miracle.bots import make_bot
from game.games.miracle.history import facts, series, summary


def played(seed):
    """A greedy match: the final state and ``[(version, seat, command, events)]`` with the view of
    every version's end (to check the series against)."""
    state, events, rng = engine.new_match(seed), [], random.Random(seed)
    bots = [make_bot("greedy"), make_bot("greedy")]
    commands, views = [], {}
    while state.phase != "over":
        seat = engine.to_move(state)[0]
        command = bots[seat].choose(engine.view(state, seat), engine.project(events, seat),
                                    engine.legal_commands(state, seat), seat, rng)
        state, produced = engine.apply(state, seat, command, in_place=True)
        events += produced
        commands.append((len(commands) + 1, seat, command, produced))
        if "end_turn" in command or state.phase == "over":
            views[engine.view(state, "all")["turn"] - (state.phase != "over")] = engine.view(state, "all")
    return state, commands, views


def test_the_series_follow_miracle_hp_and_creatures_after_every_turn():
    state, commands, views = played(9)
    hp, units = series(commands)
    assert hp[0] == (0, 30, 30) and units[0] == (0, 0, 0)
    assert [t for t, *_ in hp] == [t for t, *_ in units] == list(range(0, state.turn + 1))
    for turn, a, b in hp[1:]:
        seen = views[turn]
        assert (a, b) == tuple(max(h, 0) for h in seen["miracle_hp"]), turn
    for turn, a, b in units[1:]:
        camps = [u["camp"] for u in views[turn]["units"]]
        assert (a, b) == (camps.count(0), camps.count(1)), turn
    assert min(hp[-1][1:]) == 0  # the match ended with a miracle destroyed


def test_the_facts_and_summary_of_a_finished_match():
    state, commands, _ = played(9)
    assert facts(state) == {"score": tuple(max(h, 0) for h in state.miracle_hp), "turns": state.turn}
    charts = []
    context = summary(state, ["ann", "ben"], commands, lambda points, top: charts.append((points, top)) or top)
    assert context["winner"] == ["ann", "ben"][state.winner] and context["turns"] == state.turn
    assert context["reason"] == "miracle destroyed"
    assert [len(side["creatures"]) for side in context["sides"]] == [3, 3]
    assert context["hp_chart"] == 30 and charts[0][0] == series(commands)[0]


def test_a_match_resigned_before_the_decks_has_no_charts():
    state = engine.new_match(3)
    state, events = engine.resign(state, 0, "resign")
    context = summary(state, ["ann", "ben"], [(1, 0, {"surrender": {}}, events)], lambda *a: "chart")
    assert context["hp_chart"] is None and context["sides"][0]["artifact"] is None
    assert context["reason"] == "resignation"
