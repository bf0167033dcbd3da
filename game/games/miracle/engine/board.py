"""The map, loaded once from ``data/map.json``: integer cell ids and precomputed tables.

Inside the engine a cell is an integer id (its index in map.json's ``cells``); coordinates
``(x, y, z)`` appear only at the edges (commands, events, views). Distances and neighbours are
looked up in tables built at import, because movement and range checks run thousands of times
per match.
"""
import json
from importlib import resources

_MAP = json.loads(resources.files(__package__).joinpath("data/map.json").read_text(encoding="utf-8"))

COORDS = tuple((c["x"], c["y"], c["z"]) for c in _MAP["cells"])
CELL_COUNT = len(COORDS)
CELL_OF = {xyz: i for i, xyz in enumerate(COORDS)}
CELLS = range(CELL_COUNT)

_DIRECTIONS = ((1, 0, -1), (1, -1, 0), (0, -1, 1), (-1, 0, 1), (-1, 1, 0), (0, 1, -1))


def _distance(a, b):
    return (abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2])) // 2


NEIGHBOURS = tuple(
    tuple(CELL_OF[n] for n in ((x + dx, y + dy, z + dz) for dx, dy, dz in _DIRECTIONS) if n in CELL_OF)
    for x, y, z in COORDS
)
# DIST[a][b]: cube distance; one bytes row per cell (the largest distance on this map is 28).
DIST = tuple(bytes(_distance(a, b) for b in COORDS) for a in COORDS)

MIRACLE_CELL = tuple(CELL_OF[tuple(m["pos"])] for m in sorted(_MAP["miracles"], key=lambda m: m["camp"]))
MIRACLE_CELLS = frozenset(MIRACLE_CELL)
ABYSS = frozenset(CELL_OF[tuple(c)] for c in _MAP["abyss"]["official_39"])
INITIAL_SPAWNS = tuple(tuple(CELL_OF[tuple(c)] for c in _MAP["initial_spawn_points"][str(camp)]) for camp in (0, 1))
GARRISON_CELL = tuple(CELL_OF[tuple(b["pos"])] for b in _MAP["barracks"])
GARRISON_SPAWNS = tuple(tuple(CELL_OF[tuple(c)] for c in b["spawn_points"]) for b in _MAP["barracks"])
GARRISON_OF_CELL = {cell: index for index, cell in enumerate(GARRISON_CELL)}

# Cells a ground creature may ever enter, and a flyer (rule 16: miracles block both, abyss ground).
GROUND_OK = tuple(c not in ABYSS and c not in MIRACLE_CELLS for c in CELLS)
AIR_OK = tuple(c not in MIRACLE_CELLS for c in CELLS)


def within(cell, radius):
    """Cells at distance ≤ ``radius`` of ``cell`` (ascending id)."""
    row = DIST[cell]
    return [c for c in CELLS if row[c] <= radius]


def coord(cell):
    return list(COORDS[cell])


def parse_cell(value):
    """The cell id of a command's ``[x, y, z]``, or None when ``value`` is not a map cell.

    Strict: a list of exactly three ints (bools refused); anything else is None, never an error.
    """
    if type(value) is not list or len(value) != 3:
        return None
    if not all(type(v) is int for v in value):
        return None
    return CELL_OF.get((value[0], value[1], value[2]))
