"""Where each cell of the map is drawn: flat-top hexes from the engine's cube coordinates.

The map's own note (``data/map.json``, ``orientation_as_drawn``) gives the picture: side 0's
miracle at the bottom, +z to the left. A player whose seat holds side 1 sees the map turned half
a circle, so that every player has their own miracle at the bottom; the map is point-symmetric, so
only who owns what changes. Pure geometry: nothing here depends on a match.
"""
import math

from .engine import board

# Centre to corner, in SVG units; the page scales the whole drawing.
SIZE = 10
ROW = math.sqrt(3) / 2 * SIZE
HEX_POINTS = " ".join(
    f"{SIZE * math.cos(math.radians(a)):.2f},{SIZE * math.sin(math.radians(a)):.2f}" for a in range(0, 360, 60)
)


def key(cell):
    return ",".join(map(str, cell))


def centre(cell, flipped):
    """Screen position (x right, y down) of cube cell ``[x, y, z]``; ``flipped``: side 1 at the bottom."""
    x, y, z = cell
    sign = -1 if flipped else 1
    return round(sign * 1.5 * SIZE * -z, 2), round(sign * ROW * (y - x), 2)


def _extent():
    xs = [abs(centre(c, False)[0]) for c in board.COORDS]
    ys = [abs(centre(c, False)[1]) for c in board.COORDS]
    # Room beyond the outer cells for what sticks out of a token or a miracle (stars, HP).
    return max(xs) + SIZE + 1, max(ys) + ROW + 4


HALF_WIDTH, HALF_HEIGHT = _extent()
VIEW_BOX = f"{-HALF_WIDTH:.1f} {-HALF_HEIGHT:.1f} {2 * HALF_WIDTH:.1f} {2 * HALF_HEIGHT:.1f}"

ABYSS = frozenset(key(board.COORDS[c]) for c in board.ABYSS)
GARRISONS = tuple(key(board.COORDS[c]) for c in board.GARRISON_CELL)
MIRACLES = frozenset(key(board.COORDS[c]) for c in board.MIRACLE_CELL)


def cells(flipped):
    """Every cell as ``{"key", "x", "y", "terrain", "column", "row"}``, in the engine's order. Columns
    count from the left of the map as drawn, rows from the top of each column (both from 1): how the
    page names a cell in words."""
    out = []
    for coords in board.COORDS:
        k = key(coords)
        x, y = centre(coords, flipped)
        terrain = "abyss" if k in ABYSS else "miracle" if k in MIRACLES else "ground"
        # ``ix``, ``iy``: the corner of a mark drawn on the cell (an abyss, a spawn point), 12 units wide.
        out.append({"key": k, "x": x, "y": y, "ix": round(x - 6, 2), "iy": round(y - 6, 2), "terrain": terrain})
    columns = sorted({c["x"] for c in out})
    for c in out:
        c["column"] = columns.index(c["x"]) + 1
        c["row"] = sorted(d["y"] for d in out if d["x"] == c["x"]).index(c["y"]) + 1
    return out


CELLS = {False: cells(False), True: cells(True)}
# Each cell's place in ``CELLS`` (the engine's order, either way up).
INDEX = {key(coords): index for index, coords in enumerate(board.COORDS)}
