"""Determinisation: complete engine states that agree with everything one player knows.

A bot never sees the true state. To look ahead it samples the hidden part (enemy species, a Mimic's
copy) from the candidate sets that ``game.games.aquawar.engine.deduction`` proves, fills in the enemy's hidden
numbers from the public record (ATK, shields, the Eel/Sunfish damage counter and skill uses are
exact functions of public counts once the kind is fixed; pending delayed effects are unknown and
left off), and builds a ``MatchState`` from that. Its own fish come from its own view.
"""
from game.games.aquawar.engine import MatchState
from game.games.aquawar.engine.deduction import SHARERS, RoundFacts, analyse
from game.games.aquawar.engine.species import MIMIC, SPECIES

ROUND_WIN = 100000.0
ALIVE_BONUS = 150.0  # a living fish acts, shares, counters and wins the tiebreak


class Knowledge:
    """The deduction for one decision, plus sampling of its hidden identities."""

    def __init__(self, player_view, events, player):
        self.view = player_view
        self.player = player
        self.deduction = analyse(player_view, events, player)
        rnd = self.deduction.current
        if rnd is None or rnd.number != player_view["round"]:
            rnd = RoundFacts(player_view["round"])  # a projection without this round: no evidence
        self.foes = rnd.teams[1 - player]
        self.own = rnd.teams[player]

    def sample_identities(self, rng):
        """Distinct species for the four enemy fish, each from its candidate set, and a copy kind
        for a Mimic: [(species, kind), ...]. Random backtracking over the tightest fish first."""
        sets = [
            [seen["fish"]] if seen["revealed"] else sorted(facts.species) or list(SPECIES)
            for seen, facts in zip(self.view["teams"][1 - self.player], self.foes)
        ]
        order = sorted(range(len(sets)), key=lambda i: (len(sets[i]), rng.random()))
        chosen = {}

        def fill(k):
            if k == len(order):
                return True
            i = order[k]
            options = [s for s in sets[i] if s not in chosen.values()]
            rng.shuffle(options)
            for s in options:
                chosen[i] = s
                if fill(k + 1):
                    return True
                del chosen[i]
            return False

        if not fill(0):  # an inconsistent record (never expected): fall back to independent draws
            chosen = {i: rng.choice(sets[i]) for i in range(len(sets))}
        out = []
        for i, fish in enumerate(self.foes):
            species = chosen[i]
            kinds = sorted(fish.kinds) or ["great_white_shark"]  # (only for an inconsistent record)
            out.append((species, rng.choice(kinds) if species == MIMIC else species))
        return out

    def marginals(self, rng, n):
        """P(fish i is species s), estimated over ``n`` joint samples."""
        counts = [dict() for _ in self.foes]
        for _ in range(n):
            for i, (species, _kind) in enumerate(self.sample_identities(rng)):
                counts[i][species] = counts[i].get(species, 0) + 1
        return [{s: c / n for s, c in row.items()} for row in counts]

    def world(self, rng):
        """One complete ``MatchState`` consistent with this player's knowledge."""
        identities = self.sample_identities(rng)
        me, view = self.player, self.view
        teams = [None, None]
        teams[me] = [_own_fish(f, facts) for f, facts in zip(view["teams"][me], self.own)]
        teams[1 - me] = [
            _enemy_fish(f, facts, species, kind)
            for f, facts, (species, kind) in zip(view["teams"][1 - me], self.foes, identities)
        ]
        picks = [None, None]
        for side in (0, 1):
            fish = [f["species"] for f in teams[side]]
            mimic = next((f["mimic_of"] for f in teams[side] if f["species"] == MIMIC), None)
            picks[side] = {"fish": fish, "mimic": mimic}
        data = {
            "seed": 0,
            "rng": rng.getrandbits(64),
            "round": view["round"],
            "phase": view["phase"],
            "to_move": view["to_move"],
            "turn": view["turn"],
            "first_mover": view["first_mover"],
            "score": list(view["score"]),
            "winner": None,
            "end_reason": None,
            "rounds": [dict(r) for r in view["rounds"]],
            "used": [[], []],
            "picks": picks,
            "past_picks": [],
            "teams": teams,
        }
        return MatchState.from_json(data)


def _fish_json(species, mimic_of, hp, atk, alive, revealed, shields, damage_taken, uses, effects=()):
    return {
        "species": species,
        "mimic_of": mimic_of,
        "hp": hp,
        "atk": atk,
        "alive": alive,
        "revealed": revealed,
        "shields": shields,
        "damage_taken": damage_taken,
        "skill_uses": uses,
        "pending_reduce": "reduce" in effects,
        "pending_share": "share" in effects,
        "pending_heal": "heal" in effects,
    }


def _own_fish(seen, facts):
    kind = seen["mimic_of"] or seen["fish"]
    # The view shows ATK as it counts now; the engine stores it without the Hammerhead bonus.
    atk = seen["atk"] - (15 if kind == "hammerhead_shark" and seen["hp"] < 80 else 0)
    counter = facts.damage_total % 200 if kind in SHARERS else 0
    return _fish_json(seen["fish"], seen["mimic_of"], seen["hp"], atk, seen["alive"], seen["revealed"],
                      seen["shields"], counter, seen["skill_uses"], seen["effects"])


def _enemy_fish(seen, facts, species, kind):
    shields = max(0, 3 - facts.instances) if kind == "sea_turtle" and facts.instances_known else 0
    counter = facts.damage_total % 200 if kind in SHARERS else 0
    return _fish_json(species, kind if species == MIMIC else None, seen["hp"], facts.stored_atk(kind),
                      seen["alive"], seen["revealed"], shields, counter, len(facts.cats))


def clone(state):
    """An independent copy of ``state`` for search."""
    return state.copy()


def round_over(state, round_number):
    return state.round != round_number or state.phase == "over"


def evaluate(state, player, round_number):
    """How good ``state`` is for ``player``: the round's result if it is over, else material."""
    if round_over(state, round_number):
        return ROUND_WIN if state.rounds[-1]["winner"] == player else -ROUND_WIN
    score = 0.0
    for side, sign in ((player, 1.0), (1 - player, -1.0)):
        for fish in state.teams[side]:
            if fish.alive:
                value = fish.hp + ALIVE_BONUS + 0.6 * (fish.current_atk() - 100) + 10 * fish.shields
                value += 15 * (fish.pending_reduce + fish.pending_share + fish.pending_heal)
                score += sign * value
    return score
