"""A line chart of the two sides' values over a match (Aquawar plots each side's total HP over a
round's turns), or of one value over time (a player's rating after each rated match, ratings/), as
SVG coordinates for a template to draw. The game gives the data (``Presentation.summary``), this
module the drawing.

No chart library: two polylines, a few grid lines and labels are all the summary page needs, and
computing them here keeps the template free of arithmetic.
"""
WIDTH, HEIGHT = 480, 200
# Room for the axis labels left of and below the plot.
LEFT, BOTTOM, TOP, RIGHT = 44, 24, 10, 10


def _x(step, last_step):
    return LEFT + (WIDTH - LEFT - RIGHT) * step / max(last_step, 1)


def _y(value, top, low=0):
    return TOP + (HEIGHT - TOP - BOTTOM) * (1 - (value - low) / (top - low))


def plot(series, top, low=0):
    """``series``: ``[(step, value of side 0, value of side 1, …)]``, steps ascending (Aquawar: turns),
    one line per side; ``top`` and ``low``: the largest and smallest values the vertical axis shows
    (whole numbers, ``top - low`` a multiple of 4 for round tick labels)."""
    last_step = series[-1][0]
    lines = []
    for side in range(len(series[0]) - 1):
        points = " ".join(f"{_x(p[0], last_step):.1f},{_y(p[side + 1], top, low):.1f}" for p in series)
        lines.append({"side": side, "points": points})
    spacing = max(1, (top - low) // 4)
    ticks_y = [{"hp": value, "y": f"{_y(value, top, low):.1f}"} for value in range(low, top + 1, spacing)]
    step = max(1, -(-last_step // 8))  # at most about eight step labels, whatever the length
    ticks_x = [{"turn": t, "x": f"{_x(t, last_step):.1f}"} for t in range(0, last_step + 1, step)]
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
        "points": [{"turn": p[0], "hp": list(p[1:])} for p in series],
    }
