"""Match state: plain data with an exact JSON round trip, and the seeded random generator.

Cells are integer ids inside (``board``); the JSON form writes coordinates so a stored state reads
like the rest of the game's JSON. The occupancy lists (``ground``/``air``: cell -> unit id or 0)
are derived from the units and rebuilt on load, so they are not serialised.
"""
from ...engines.rng import MASK64, splitmix64
from . import board
from .cards import STATS, UNIT_COUNTS

MIRACLE_HP = 30
MAX_MANA = 12
LAST_TURN = 100
PHASES = ("deck", "play", "over")
ARTIFACT_STATES = ("ready", "in_use", "cooling")


class Unit:
    """One creature on the board. ``atk`` is its current attack (base + auras + HolyLight), kept
    up to date by ``combat.refresh_attack`` after every change that can move it."""

    __slots__ = ("id", "camp", "type", "level", "cell", "born", "hp", "max_hp", "atk", "can_act", "shield",
                 "equipped", "holy_until", "stats")

    _FIELDS = ("id", "camp", "type", "level", "born", "hp", "max_hp", "atk", "can_act", "shield", "equipped",
               "holy_until")

    def __init__(self, unit_id, camp, type_id, level, cell, born):
        stats = STATS[type_id, level]
        self.id = unit_id
        self.camp = camp
        self.type = type_id
        self.level = level
        self.cell = cell
        # The global turn it entered the board in (it has no action in that turn, ruling 14).
        self.born = born
        self.hp = stats.hp
        self.max_hp = stats.hp
        self.atk = stats.atk
        self.can_act = False
        self.shield = False
        self.equipped = False
        # Global turn at whose end a HolyLight bonus ends; 0 for none.
        self.holy_until = 0
        self.stats = stats

    def copy(self):
        other = Unit.__new__(Unit)
        other.id = self.id
        other.camp = self.camp
        other.type = self.type
        other.level = self.level
        other.cell = self.cell
        other.born = self.born
        other.hp = self.hp
        other.max_hp = self.max_hp
        other.atk = self.atk
        other.can_act = self.can_act
        other.shield = self.shield
        other.equipped = self.equipped
        other.holy_until = self.holy_until
        other.stats = self.stats
        return other

    def to_json(self):
        data = {key: getattr(self, key) for key in self._FIELDS}
        data["at"] = board.coord(self.cell)
        return data

    @classmethod
    def from_json(cls, data):
        unit = cls(data["id"], data["camp"], data["type"], data["level"], board.CELL_OF[tuple(data["at"])],
                   data["born"])
        for key in cls._FIELDS[5:]:
            setattr(unit, key, data[key])
        return unit


class Pool:
    """A side's creature units of one type: ``capacity`` in all, ``on_board`` alive, and the
    remaining cooldowns of the cooling ones; the rest are available."""

    __slots__ = ("capacity", "on_board", "cooling")

    def __init__(self, capacity, on_board=0, cooling=()):
        self.capacity = capacity
        self.on_board = on_board
        self.cooling = list(cooling)

    @property
    def available(self):
        return self.capacity - self.on_board - len(self.cooling)

    def copy(self):
        return Pool(self.capacity, self.on_board, self.cooling)

    def to_json(self):
        return {"capacity": self.capacity, "on_board": self.on_board, "cooling": list(self.cooling)}


def new_pools(creatures):
    return {t: Pool(UNIT_COUNTS[t][0]) for t in creatures}


class MatchState:
    """Everything about one match. Mutated only by the engine's rules modules."""

    __slots__ = ("seed", "rng", "phase", "turn", "first_mover", "current", "winner", "end_reason",
                 "tiebreak", "decks", "miracle_hp", "mana", "max_mana", "garrisons", "units", "next_id",
                 "pools", "artifacts", "lost_stars", "ground", "air")

    def __init__(self, seed):
        self.seed = seed
        self.rng = seed & MASK64
        self.phase = "deck"
        self.turn = 0
        self.first_mover = None
        # The player whose turn it is in play; None otherwise. Everything kept per side is indexed
        # by player (seat), and a unit's ``camp`` is its owner's seat.
        self.current = None
        self.winner = None
        self.end_reason = None
        # At the turn limit, which step decided: "miracle_hp", "lost_stars" or "second_player".
        self.tiebreak = None
        # Decks by seat: {"artifact": id, "creatures": [3 ids]} once submitted.
        self.decks = [None, None]
        self.miracle_hp = [MIRACLE_HP, MIRACLE_HP]
        self.mana = [0, 0]
        self.max_mana = [1, 2]
        self.garrisons = [None] * len(board.GARRISON_CELL)
        self.units = {}
        self.next_id = 1
        self.pools = [{}, {}]
        # Per side: {"state": ready|in_use|cooling, "cooldown": turns left, "unit": holder or None}.
        self.artifacts = [_ready_artifact(), _ready_artifact()]
        self.lost_stars = [0, 0]
        self.ground = [0] * board.CELL_COUNT
        self.air = [0] * board.CELL_COUNT

    def next_random(self):
        self.rng, out = splitmix64(self.rng)
        return out

    def side(self, player):
        """The map side a player holds: 0 (miracle (-7, 7, 0)) for the first mover (ruling 2)."""
        return 0 if player == self.first_mover else 1

    def copy(self):
        other = MatchState.__new__(MatchState)
        other.seed = self.seed
        other.rng = self.rng
        other.phase = self.phase
        other.turn = self.turn
        other.first_mover = self.first_mover
        other.current = self.current
        other.winner = self.winner
        other.end_reason = self.end_reason
        other.tiebreak = self.tiebreak
        # Decks never change once submitted, so sharing them is safe.
        other.decks = list(self.decks)
        other.miracle_hp = list(self.miracle_hp)
        other.mana = list(self.mana)
        other.max_mana = list(self.max_mana)
        other.garrisons = list(self.garrisons)
        other.units = {i: u.copy() for i, u in self.units.items()}
        other.next_id = self.next_id
        other.pools = [{t: p.copy() for t, p in side.items()} for side in self.pools]
        other.artifacts = [dict(a) for a in self.artifacts]
        other.lost_stars = list(self.lost_stars)
        other.ground = list(self.ground)
        other.air = list(self.air)
        return other

    def to_json(self):
        return {
            "seed": self.seed,
            "rng": self.rng,
            "phase": self.phase,
            "turn": self.turn,
            "first_mover": self.first_mover,
            "current": self.current,
            "winner": self.winner,
            "end_reason": self.end_reason,
            "tiebreak": self.tiebreak,
            "decks": [_deck_json(d) for d in self.decks],
            "miracle_hp": list(self.miracle_hp),
            "mana": list(self.mana),
            "max_mana": list(self.max_mana),
            "garrisons": list(self.garrisons),
            "units": [u.to_json() for u in self.units.values()],
            "next_id": self.next_id,
            "pools": [{t: p.to_json() for t, p in side.items()} for side in self.pools],
            "artifacts": [dict(a) for a in self.artifacts],
            "lost_stars": list(self.lost_stars),
        }

    @classmethod
    def from_json(cls, data):
        state = cls(data["seed"])
        for key in ("rng", "phase", "turn", "first_mover", "current", "winner", "end_reason", "tiebreak",
                    "next_id"):
            setattr(state, key, data[key])
        for key in ("miracle_hp", "mana", "max_mana", "garrisons", "lost_stars"):
            setattr(state, key, list(data[key]))
        state.decks = [_deck_json(d) for d in data["decks"]]
        state.pools = [{t: Pool(p["capacity"], p["on_board"], p["cooling"]) for t, p in side.items()}
                       for side in data["pools"]]
        state.artifacts = [dict(a) for a in data["artifacts"]]
        for unit_data in data["units"]:
            unit = Unit.from_json(unit_data)
            state.units[unit.id] = unit
            (state.air if unit.stats.flying else state.ground)[unit.cell] = unit.id
        return state

    def __eq__(self, other):
        return isinstance(other, MatchState) and self.to_json() == other.to_json()

    __hash__ = None


def _ready_artifact():
    return {"state": "ready", "cooldown": 0, "unit": None}


def _deck_json(deck):
    if deck is None:
        return None
    return {"artifact": deck["artifact"], "creatures": list(deck["creatures"])}
