"""Where a creature may move (rulings 15-18): a breadth-first search over the precomputed
neighbour table, in which blocked cells are never entered and stop cells end a path."""
from .board import AIR_OK, GROUND_OK, NEIGHBOURS


def stop_cells(state, unit):
    """Ruling 17: cells an enemy makes the mover stop on (enemy same-layer neighbours, cells with an
    enemy on the other layer)."""
    flying = unit.stats.flying
    stops = set()
    for other in state.units.values():
        if other.camp != unit.camp:
            if other.stats.flying == flying:
                stops.update(NEIGHBOURS[other.cell])
            else:
                stops.add(other.cell)
    return stops


def reachable(state, unit):
    """``{cell: previous cell}`` for every cell ``unit`` can reach within its move, plus its own
    cell (mapped to -1). BFS reaches each cell by a shortest legal path, so a cell within the move
    by any legal path is found within it."""
    flying = unit.stats.flying
    layer = state.air if flying else state.ground
    enterable = AIR_OK if flying else GROUND_OK
    stops = stop_cells(state, unit)
    start = unit.cell
    parent = {start: -1}
    frontier = [start]
    for _ in range(unit.stats.move):
        following = []
        for cell in frontier:
            if cell in stops and cell != start:
                continue
            for n in NEIGHBOURS[cell]:
                if n not in parent and enterable[n] and not layer[n]:
                    parent[n] = cell
                    following.append(n)
        if not following:
            break
        frontier = following
    return parent


def path_to(parent, cell):
    """The cells from the first step to ``cell`` (the start cell excluded, as the rules count)."""
    path = []
    while parent[cell] != -1:
        path.append(cell)
        cell = parent[cell]
    path.reverse()
    return path
