"""Each side's total HP across a round's turns, as SVG coordinates for a template to draw.

No chart library: two polylines, a few grid lines and labels are all the summary page needs, and
computing them here keeps the template free of arithmetic.
"""
from .replays import START_HP

WIDTH, HEIGHT = 480, 200
# Room for the axis labels left of and below the plot.
LEFT, BOTTOM, TOP, RIGHT = 44, 24, 10, 10
FULL = 4 * START_HP


def _x(turn, last_turn):
    return LEFT + (WIDTH - LEFT - RIGHT) * turn / max(last_turn, 1)


def _y(hp):
    return TOP + (HEIGHT - TOP - BOTTOM) * (1 - hp / FULL)


def round_chart(series):
    """``series``: ``[(turn, hp side 0, hp side 1)]`` of one round (see ``replays.hp_series``)."""
    last_turn = series[-1][0]
    lines = []
    for side in (0, 1):
        points = " ".join(f"{_x(p[0], last_turn):.1f},{_y(p[side + 1]):.1f}" for p in series)
        lines.append({"side": side, "points": points})
    ticks_y = [{"hp": hp, "y": f"{_y(hp):.1f}"} for hp in range(0, FULL + 1, FULL // 4)]
    step = max(1, -(-last_turn // 8))  # at most about eight turn labels, whatever the length
    ticks_x = [{"turn": t, "x": f"{_x(t, last_turn):.1f}"} for t in range(0, last_turn + 1, step)]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "lines": lines,
        "ticks_x": ticks_x,
        "ticks_y": ticks_y,
        "points": [{"turn": t, "hp": [a, b]} for t, a, b in series],
    }
