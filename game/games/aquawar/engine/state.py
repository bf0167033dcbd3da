"""Match state: plain data with an exact JSON round trip, and the seeded random generator.

The generator is SplitMix64 on a 64-bit integer kept in the state, so a state serialised mid-match
and restored continues with the very same dodge rolls. A match replayed from a record that carries
its dodge outcomes (an official replay's, whose dodges no seed reproduces) takes them from
``dodges`` instead, in roll order; the JSON holds the ones not used yet.
"""
from ...engines.errors import IllegalCommand
from ...engines.rng import MASK64, splitmix64
from .species import ACTIVE, DODGE, MIMIC, PASSIVE, SHIELD, EXPLODE

# A seed is a signed 64-bit integer: what a database's BigInteger column holds (the site keeps
# seeds there), and each one starts the 64-bit generator at a state of its own (seed & MASK64).
SEED_MIN, SEED_MAX = -(1 << 63), (1 << 63) - 1
START_HP = 400
START_ATK = 100
START_SHIELDS = 3
MAX_TURNS = 64
# The 2021 official program ended rounds after 63 turns; its replays are replayed under that limit.
OFFICIAL_TURN_LIMIT = 63
TURN_LIMITS = (MAX_TURNS, OFFICIAL_TURN_LIMIT)
DODGE_PERCENT = 30
PHASES = ("pick", "assert", "act", "over")


class Fish:
    """One fish on the board. ``kind`` is the species whose skills it has (a Mimic's copy)."""

    # What play changes, each stored as it is in the JSON; the rest follows from the species.
    PLAYED = (
        "hp",
        "atk",
        "alive",
        "revealed",
        "shields",
        "damage_taken",
        "skill_uses",
        "pending_reduce",
        "pending_share",
        "pending_heal",
    )
    __slots__ = ("species", "mimic_of", "kind", "passive", "active", *PLAYED)

    def __init__(self, species, mimic_of=None):
        self.species = species
        self.mimic_of = mimic_of
        self.kind = mimic_of if species == MIMIC else species
        self.passive = PASSIVE[self.kind]
        self.active = ACTIVE[self.kind]
        self.hp = START_HP
        self.atk = START_ATK
        self.alive = True
        self.revealed = False
        self.shields = START_SHIELDS if self.passive == SHIELD else 0
        self.damage_taken = 0
        self.skill_uses = 0
        self.pending_reduce = False
        self.pending_share = False
        self.pending_heal = False

    @property
    def can_dodge(self):
        return self.passive == DODGE or (self.passive == SHIELD and self.shields == 0)

    def current_atk(self):
        """ATK as it counts now: a Hammerhead below 80 HP adds 15 that is never stored."""
        if self.passive == EXPLODE and self.hp < 80:
            return self.atk + 15
        return self.atk

    def effects(self):
        return [
            name
            for name, on in (
                ("reduce", self.pending_reduce),
                ("share", self.pending_share),
                ("heal", self.pending_heal),
            )
            if on
        ]

    def copy(self):
        # Written out slot by slot: bots copy states thousands of times per decision, and a
        # getattr/setattr loop over __slots__ was most of their search time.
        other = Fish.__new__(Fish)
        other.species = self.species
        other.mimic_of = self.mimic_of
        other.kind = self.kind
        other.passive = self.passive
        other.active = self.active
        other.hp = self.hp
        other.atk = self.atk
        other.alive = self.alive
        other.revealed = self.revealed
        other.shields = self.shields
        other.damage_taken = self.damage_taken
        other.skill_uses = self.skill_uses
        other.pending_reduce = self.pending_reduce
        other.pending_share = self.pending_share
        other.pending_heal = self.pending_heal
        return other

    def to_json(self):
        return {
            "species": self.species,
            "mimic_of": self.mimic_of,
            "hp": self.hp,
            "atk": self.atk,
            "alive": self.alive,
            "revealed": self.revealed,
            "shields": self.shields,
            "damage_taken": self.damage_taken,
            "skill_uses": self.skill_uses,
            "pending_reduce": self.pending_reduce,
            "pending_share": self.pending_share,
            "pending_heal": self.pending_heal,
        }

    @classmethod
    def from_json(cls, data):
        fish = cls(data["species"], data["mimic_of"])
        for key in cls.PLAYED:
            setattr(fish, key, data[key])
        return fish


class MatchState:
    """Everything about one best-of-three match. Mutated only by ``game.games.aquawar.engine.rules``."""

    __slots__ = (
        "seed",
        "rng",
        "round",
        "phase",
        "to_move",
        "turn",
        "first_mover",
        "score",
        "winner",
        "end_reason",
        "rounds",
        "used",
        "picks",
        "past_picks",
        "teams",
        "dodges",
        "dodges_used",
        "turn_limit",
    )

    def __init__(self, seed, first_mover, dodges=None, turn_limit=MAX_TURNS):
        self.seed = seed
        self.rng = seed & MASK64
        self.round = 1
        self.phase = "pick"
        self.to_move = None
        self.turn = 0
        self.first_mover = first_mover
        self.score = [0, 0]
        self.winner = None
        self.end_reason = None
        # One dict per finished round: winner, first_mover, turns, reason.
        self.rounds = []
        # Species each player fielded in earlier rounds (gone from their pool).
        self.used = [[], []]
        # This round's locked picks: {"fish": [...], "mimic": id or None} or None.
        self.picks = [None, None]
        # Picks of finished rounds, [[pick0, pick1], ...], for after-match views.
        self.past_picks = []
        self.teams = [[], []]
        self.use_dodges(dodges)
        self.turn_limit = turn_limit

    def next_random(self):
        self.rng, out = splitmix64(self.rng)
        return out

    def use_dodges(self, outcomes):
        """From now on each dodge roll takes the next of ``outcomes`` (None: rolls from the seed)."""
        # A tuple shared by copies, and how many of it are used: a roll costs the same however long it is.
        self.dodges = None if outcomes is None else tuple(outcomes)
        self.dodges_used = 0

    def dodges_left(self):
        return 0 if self.dodges is None else len(self.dodges) - self.dodges_used

    def dodge(self):
        """Whether a fish that may dodge dodges this damage instance."""
        if self.dodges is None:
            return self.next_random() % 100 < DODGE_PERCENT
        if not self.dodges_left():
            raise IllegalCommand("dodges_used_up", "The recorded dodge outcomes ran out before this roll.")
        self.dodges_used += 1
        return self.dodges[self.dodges_used - 1]

    def copy(self):
        other = MatchState.__new__(MatchState)
        other.seed = self.seed
        other.rng = self.rng
        other.round = self.round
        other.phase = self.phase
        other.to_move = self.to_move
        other.turn = self.turn
        other.first_mover = self.first_mover
        other.score = list(self.score)
        other.winner = self.winner
        other.end_reason = self.end_reason
        other.rounds = [dict(r) for r in self.rounds]
        other.used = [list(u) for u in self.used]
        # Picks are never mutated after they are locked, so sharing them is safe.
        other.picks = list(self.picks)
        other.past_picks = [list(p) for p in self.past_picks]
        other.teams = [[f.copy() for f in team] for team in self.teams]
        other.dodges = self.dodges
        other.dodges_used = self.dodges_used
        other.turn_limit = self.turn_limit
        return other

    def to_json(self):
        data = {
            "seed": self.seed,
            "rng": self.rng,
            "round": self.round,
            "phase": self.phase,
            "to_move": self.to_move,
            "turn": self.turn,
            "first_mover": self.first_mover,
            "score": list(self.score),
            "winner": self.winner,
            "end_reason": self.end_reason,
            "rounds": [dict(r) for r in self.rounds],
            "used": [list(u) for u in self.used],
            "picks": [_pick_json(p) for p in self.picks],
            "past_picks": [[_pick_json(p) for p in pair] for pair in self.past_picks],
            "teams": [[f.to_json() for f in team] for team in self.teams],
        }
        # Only when set, so the states of ordinary matches keep their shape.
        if self.dodges is not None:
            data["dodges"] = list(self.dodges[self.dodges_used:])
        if self.turn_limit != MAX_TURNS:
            data["turn_limit"] = self.turn_limit
        return data

    @classmethod
    def from_json(cls, data):
        state = cls.__new__(cls)
        state.seed = data["seed"]
        state.rng = data["rng"]
        state.round = data["round"]
        state.phase = data["phase"]
        state.to_move = data["to_move"]
        state.turn = data["turn"]
        state.first_mover = data["first_mover"]
        state.score = list(data["score"])
        state.winner = data["winner"]
        state.end_reason = data["end_reason"]
        state.rounds = [dict(r) for r in data["rounds"]]
        state.used = [list(u) for u in data["used"]]
        state.picks = [_pick_json(p) for p in data["picks"]]
        state.past_picks = [[_pick_json(p) for p in pair] for pair in data["past_picks"]]
        state.teams = [[Fish.from_json(f) for f in team] for team in data["teams"]]
        state.use_dodges(data.get("dodges"))
        state.turn_limit = data.get("turn_limit", MAX_TURNS)
        return state

    def __eq__(self, other):
        return isinstance(other, MatchState) and self.to_json() == other.to_json()

    __hash__ = None


def _pick_json(pick):
    if pick is None:
        return None
    return {"fish": list(pick["fish"]), "mimic": pick["mimic"]}
