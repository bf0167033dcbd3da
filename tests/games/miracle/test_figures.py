"""The pictures of 神迹之战's how-to page (figures.py) show what the engine says of their positions."""
from game.games.miracle import engine, figures, mapdraw


def marked(figure, mark):
    return {c["key"] for board in figure["boards"] for c in board["cells"] if mark in c["marks"]}


def test_the_map_shows_both_sides_spawn_points_the_garrisons_and_the_abysses():
    (board,) = figures.the_map()["boards"]
    assert len(board["cells"]) == 277 and board["view_box"] == mapdraw.VIEW_BOX
    assert sum(c["spawn"] == "a" for c in board["cells"]) == 5 == sum(c["spawn"] == "b" for c in board["cells"])
    assert len(board["garrisons"]) == 4 and any(c["terrain"] == "abyss" for c in board["cells"])


def test_the_movement_marks_every_end_of_the_move_and_the_cells_where_it_must_stop():
    figure = figures.movement()
    reach, stops = marked(figure, "reach"), marked(figure, "stop")
    mover, enemy = figure["boards"][0]["units"]
    state = figures._position([(0, "swordsman", 1, mover["at"]), (1, "swordsman", 1, enemy["at"])])
    ends = {mapdraw.key(m["to"]) for m in engine.options(state, 0)["units"][0]["moves"]}
    assert reach == ends
    assert stops and stops == {k for k in ends if figures._distance([int(v) for v in k.split(",")], enemy["at"]) == 1}
    assert f"The {len(stops)} cells" in str(figure["alt"])


def test_the_attack_caption_says_what_the_engine_did():
    figure = figures.attack()
    assert marked(figure, "target") and marked(figure, "attacker") and marked(figure, "death")
    before, after = figure["boards"]
    assert [u["hp"] for u in before["units"]] == [4, 2] and [u["hp"] for u in after["units"]] == [2]
    # Level 2 (ATK 4, HP 4) on level 1 (ATK 2, HP 2): the counter lands though the target dies.
    assert "takes 4 damage" in str(figure["alt"]) and "strikes back for 2" in str(figure["alt"])
    assert "left with 2 HP" in str(figure["alt"])
