"""What one player can prove about the enemy's hidden fish from their own projection alone.

``candidates(player_view, projected_events, player)`` gives, for each enemy fish of the current
round, the species it can still be. It reads only what ``view(state, player)`` and
``project(events, player)`` hand to that player, so it can never leak hidden data, and every rule
below only removes a species when the public record makes it impossible (soundness first).

The reasoning works on two levels:

* the **kind** of a fish: the species whose skills it has (a Mimic's copy, else its species). All
  behaviour evidence constrains kinds: skill categories and their order (a Turtle crits three times
  then goes silent), ATK read off damage amounts (each kind's ATK is an exact function of public
  counts), and passives that must or must not have fired (a Turtle's first three damage instances
  are shields, a regenerating fish always heals after damage, a sharing fish always shares a direct
  hit while a teammate lives, a Hammerhead killed by a direct hit always explodes, counters after a
  hit below 120 HP come from the hit fish if it is a Clownfish plus every guarding teammate).
  Effects that a teammate's delayed buff could also explain (a single share, a single heal, a 70 %
  reduction) become "this fish, or one of those teammates" constraints, solved together.
* the **species**: the kinds, plus ``mimic_fish`` while it is possible, minus the player's own failed
  assertions; then all enemy fish of the whole match (four per round) must be distinct species,
  which a bipartite matching enforces (earlier rounds' revealed or proven species drop out later,
  round 3 is whatever is left).
"""
from .species import MIMIC, SPECIES

KINDS = frozenset(SPECIES) - {MIMIC}
DODGERS = frozenset({"sea_wolf", "manta_ray", "sea_turtle"})
REGEN = frozenset({"octopus", "great_white_shark"})
SHARERS = frozenset({"electric_eel", "sunfish"})
GUARDS = frozenset({"archerfish", "pufferfish"})
REDUCERS = frozenset({"manta_ray", "octopus"})
LOWEST = frozenset({"great_white_shark", "hammerhead_shark"})
FIXED_CRIT = frozenset({"sea_wolf", "sea_turtle"})
# Which skill categories each kind shows, use by use ("limited" kinds switch to silent after 3).
ONLY = {
    "archerfish": "aoe", "electric_eel": "aoe", "pufferfish": "harm_ally", "sunfish": "harm_ally",
    "sea_wolf": "crit", "great_white_shark": "crit", "hammerhead_shark": "crit",
    "manta_ray": "silent", "octopus": "silent",
}
LIMITED = {"sea_turtle": "crit", "clownfish": "aoe"}
OPERATIONS = ("action", "assert", "assert_skip")


class FishFacts:
    """The public record of one fish in one round, and (for enemy fish) what it can be."""

    def __init__(self):
        self.hp = 400
        self.alive = True
        self.kinds = set(KINDS)
        self.not_species = set()
        self.revealed = None
        self.cats = []  # categories of its skill uses, in order
        self.damage_total = 0  # HP lost to damage (the Eel/Sunfish ATK counter counts this)
        self.instances = 0  # damage instances taken (each one spends a Turtle shield)
        self.instances_known = True
        self.species = set()

    def atk(self, kind):
        """Its ATK at this moment if its kind is ``kind``: an exact function of public counts."""
        return self.stored_atk(kind) + (15 if kind == "hammerhead_shark" and self.hp < 80 else 0)

    def stored_atk(self, kind):
        """The same without the Hammerhead's low-HP bonus, which the engine never stores."""
        atk = 100
        if kind in ("pufferfish", "sunfish"):
            atk += 70 * self.cats.count("harm_ally")
        if kind in SHARERS:
            atk += 20 * (self.damage_total // 200)
        if kind in REDUCERS:
            atk += 20 * self.cats.count("silent")
        return atk

    def keep(self, test):
        self.kinds = {k for k in self.kinds if test(k)}


class RoundFacts:
    def __init__(self, number):
        self.number = number
        self.teams = [[FishFacts() for _ in range(4)] for _ in (0, 1)]
        self.either = []  # [(fish, kinds), ...]: at least one fish has a kind in its set
        self.counts = []  # (fish, mates, n): n counters = [fish is Clownfish] + guarding mates


class Deduction:
    """Everything ``analyse`` proves: ``rounds[i].teams[side][pos]`` are ``FishFacts``."""

    def __init__(self, player, rounds):
        self.player = player
        self.rounds = rounds

    @property
    def current(self):
        return self.rounds[-1] if self.rounds else None


def candidates(player_view, projected_events, player):
    """For each enemy fish of the current round, the species it can still be (in roster order),
    or ``None`` once it is revealed. An empty list outside a round (pick phase, before the first
    round starts)."""
    deduction = analyse(player_view, projected_events, player)
    if player_view["phase"] == "pick" or deduction.current is None:
        return []
    return [
        None if fish.revealed else [s for s in SPECIES if s in fish.species]
        for fish in deduction.current.teams[1 - player]
    ]


def analyse(player_view, projected_events, player):
    """Run every rule over the player's projected events; see the module docstring."""
    rounds = []
    for head, body in _operations(projected_events):
        if head["type"] == "round_start":
            rounds.append(RoundFacts(head["round"]))
        elif rounds and head["type"] in OPERATIONS:
            _operation(rounds[-1], player, head, body)
    _solve(rounds, player)
    return Deduction(player, rounds)


def _operations(events):
    """Split the stream into (head, body): an operation's head and the events it caused."""
    ops = []
    for event in events:
        if event["type"] in OPERATIONS or not ops or event["type"] in ("pick", "round_start"):
            ops.append((event, []))
        else:
            ops[-1][1].append(event)
    return ops


def _operation(rnd, me, head, body):
    enemy = 1 - me
    foes = rnd.teams[enemy]
    if head["type"] == "assert" and head["player"] == me:
        fish = foes[head["target"]]
        if head["success"]:
            fish.revealed = head["fish"]
        else:
            fish.not_species.add(head["fish"])
    alive_before = [[f.alive for f in team] for team in rnd.teams]
    hp_before = [[f.hp for f in team] for team in rnd.teams]
    if head["type"] == "action":
        if head["player"] == enemy:
            _enemy_action(rnd, me, head, body, alive_before, hp_before)
        else:
            _own_action(rnd, enemy, head, body, alive_before, hp_before)
    _passives(rnd, enemy, body, alive_before)


def _users(rnd, side, cats, exclude=None):
    """Fish of ``side`` that used a skill of one of ``cats`` earlier this round."""
    team = rnd.teams[side]
    return [f for i, f in enumerate(team) if i != exclude and any(c in cats for c in f.cats)]


def _passives(rnd, enemy, body, alive_before):
    """Evidence from what the enemy fish's passives and pending effects did (or failed to do)."""
    for i, ev in enumerate(body):
        kind = ev["type"]
        side, pos = ev.get("side"), ev.get("pos")
        fish = rnd.teams[side][pos] if side is not None else None
        if kind in ("damage", "heal", "hp_loss"):
            fish.hp = ev["hp"]
        if kind == "death":
            fish.alive, fish.hp = False, 0
        if side != enemy:
            if kind == "damage" and ev["amount"] > 0:
                fish.damage_total += ev["amount"]
            continue
        if kind == "reduce" and ev["to"] == 0:
            if ev["amount"] * 30 // 100 > 0:  # a 70 % cut cannot reach 0: a shield or a dodge
                fish.instances += 1
                fish.kinds &= DODGERS
            else:  # too small to tell a dodge from a cut: stop counting shields on this fish
                fish.instances_known = False
        elif kind == "reduce":  # someone's 70 % gift: only Manta Ray / Octopus give it (silently)
            rnd.either.append([(f, REDUCERS) for f in _users(rnd, enemy, ("silent",))])
        elif kind == "explode":
            fish.kinds &= {"hammerhead_shark"}
        elif kind == "damage":
            _damage(rnd, enemy, body, i, ev, fish, alive_before)


def _damage(rnd, enemy, body, i, ev, fish, alive_before):
    pos, amount, direct = ev["pos"], ev["amount"], ev["direct"]
    if amount > 0:
        fish.damage_total += amount
    fish.instances += 1
    if fish.instances <= 3 and fish.instances_known:
        fish.kinds.discard("sea_turtle")  # its first three instances all hit shields
    if amount > 0 and ev["hp"] > 0:
        heals = 0
        while i + 1 + heals < len(body) and body[i + 1 + heals]["type"] == "heal" \
                and body[i + 1 + heals]["side"] == enemy and body[i + 1 + heals]["pos"] == pos:
            heals += 1
        if heals == 0:
            fish.kinds -= REGEN
        elif heals == 2 or not direct:  # a Turtle's gift answers direct hits only
            fish.kinds &= REGEN
        else:
            gifts = [(f, {"sea_turtle"}) for f in _users(rnd, enemy, ("crit", "silent"), pos)]
            rnd.either.append([(fish, REGEN)] + gifts)
    if not direct:
        return
    shares = sum(1 for e in body if e["type"] == "share" and e["side"] == enemy and e["pos"] == pos)
    mates = any(alive_before[enemy][k] for k in range(4) if k != pos)
    if shares == 0 and mates:
        fish.kinds -= SHARERS
    elif shares == 2:
        fish.kinds &= SHARERS
    elif shares == 1:
        clowns = [(f, {"clownfish"}) for f in _users(rnd, enemy, ("aoe", "silent"), pos)]
        rnd.either.append([(fish, SHARERS)] + clowns)
    if ev["hp"] == 0 and not any(e["type"] == "explode" and e["side"] == enemy and e["pos"] == pos for e in body):
        fish.kinds.discard("hammerhead_shark")


def _own_action(rnd, enemy, head, body, alive_before, hp_before):
    """Our direct hits on enemy fish: count the counters they set off (who answered is hidden)."""
    if head["kind"] == "attack" or head.get("category") == "crit":
        targets, single = [head["enemy"]], True
    elif head.get("category") == "aoe":
        targets, single = [j for j in range(4) if alive_before[enemy][j]], False
    else:
        return
    for p in targets:
        hp = hp_before[enemy][p] if single else None
        for i, ev in enumerate(body):
            if ev["type"] == "damage" and ev["side"] == enemy and ev["pos"] == p and ev["direct"]:
                hp = ev["hp"]
                for later in body[i + 1:]:
                    if later["type"] != "heal" or later["side"] != enemy or later["pos"] != p:
                        break
                    hp = later["hp"]
        if hp is None or hp >= 120:
            continue
        n = sum(1 for e in body if e["type"] == "counter" and e["side"] == enemy and e["pos"] == p)
        team = rnd.teams[enemy]
        mates = [team[k] for k in range(4) if k != p and alive_before[enemy][k]]
        rnd.counts.append((team[p], mates, n))


def _enemy_action(rnd, me, head, body, alive_before, hp_before):
    """The acting enemy fish: its skill category, and its ATK read off the damage it dealt."""
    actor = rnd.teams[1 - me][head["actor"]]
    atk = {k: actor.atk(k) for k in actor.kinds}  # ATK is locked at the start of the action
    if head["kind"] == "attack":
        raw = _raw_single(body, me, head["enemy"])
        if raw is not None:
            actor.keep(lambda k: atk[k] * 50 // 100 == raw)
        return
    category = head["category"]
    actor.cats.append(category)
    actor.keep(lambda k: _categories_fit(k, actor.cats))
    if category == "crit":
        j = head["enemy"]
        living = [hp_before[me][k] for k in range(4) if alive_before[me][k]]
        if hp_before[me][j] != min(living):
            actor.kinds -= LOWEST
        raw = _raw_single(body, me, head["enemy"])
        rate = 140 if hp_before[me][j] < 160 else 120
        if raw is not None:
            actor.keep(lambda k: raw == (120 if k in FIXED_CRIT else atk[k] * rate // 100))
    elif category == "aoe":
        for j in range(4):
            raw = _raw_aoe(body, me, j) if alive_before[me][j] else None
            if raw is not None:
                actor.keep(lambda k: atk[k] * 35 // 100 == raw)


def _categories_fit(kind, cats):
    if kind in ONLY:
        return all(c == ONLY[kind] for c in cats)
    first = LIMITED[kind]
    return all(c == (first if n < 3 else "silent") for n, c in enumerate(cats))


def _on(ev, side, pos):
    return ev.get("side") == side and ev.get("pos") == pos


def _raw_single(body, me, j):
    """The undiminished amount of a single-target hit on our fish ``j``, when the record shows it:
    a shield/dodge or a 70 % cut states it, a damage event is it unless a share came first."""
    if body and _on(body[0], me, j) and body[0]["type"] in ("avoid", "reduce", "damage"):
        return body[0]["amount"]
    return None


def _raw_aoe(body, me, j):
    """The same for one target of an AoE, where other targets' events interleave."""
    mine = [e for e in body if _on(e, me, j)]
    if any(e["type"] == "share" for e in mine):
        return None
    for e in mine:
        if e["type"] == "reduce" or (e["type"] == "damage" and e["direct"]):
            return e["amount"]
    if not any(e["type"] == "share" and e["side"] == me for e in body):  # no shared hits around
        for e in mine:
            if e["type"] == "avoid":
                return e["amount"]
    return None


# --- solving ----------------------------------------------------------------------------------


def _solve(rounds, me):
    """Propagate the cross-fish constraints and the all-distinct species rule to a fixpoint."""
    foes = [f for rnd in rounds for f in rnd.teams[1 - me]]
    for fish in foes:
        if fish.revealed and fish.revealed != MIMIC:
            fish.kinds &= {fish.revealed}
    while True:
        before = [(len(f.kinds), len(f.species)) for f in foes]
        for rnd in rounds:
            _propagate(rnd)
        for fish in foes:
            if fish.revealed:
                fish.species = {fish.revealed}
            else:
                fish.species = set(fish.kinds) - fish.not_species
                if MIMIC not in fish.not_species and fish.kinds:
                    fish.species.add(MIMIC)
        _distinct(foes)
        for fish in foes:
            if MIMIC not in fish.species:
                fish.kinds &= fish.species
        if before == [(len(f.kinds), len(f.species)) for f in foes]:
            return


def _propagate(rnd):
    changed = True
    while changed:
        changed = False
        for options in rnd.either:
            live = [(f, ks) for f, ks in options if f.kinds & ks]
            if len(live) == 1 and not live[0][0].kinds <= live[0][1]:
                live[0][0].kinds &= live[0][1]
                changed = True
        for fish, mates, n in rnd.counts:
            changed |= _count(fish, mates, n)


def _count(fish, mates, n):
    """n counters = [fish is a Clownfish] + number of guarding mates: force or rule out."""
    clown = {"clownfish"}
    low = sum(1 for m in mates if m.kinds <= GUARDS) + (fish.kinds <= clown)
    high = sum(1 for m in mates if m.kinds & GUARDS) + ("clownfish" in fish.kinds)
    before = [len(f.kinds) for f in [fish] + mates]
    if high == n:
        for m in mates:
            if m.kinds & GUARDS:
                m.kinds &= GUARDS
        if "clownfish" in fish.kinds:
            fish.kinds &= clown
    elif low == n:
        for m in mates:
            if not m.kinds <= GUARDS:
                m.kinds -= GUARDS
        if not fish.kinds <= clown:
            fish.kinds -= clown
    return before != [len(f.kinds) for f in [fish] + mates]


def _distinct(foes):
    """Keep species s for fish f only if some assignment of distinct species to all fish gives f s."""
    index = {s: b for b, s in enumerate(SPECIES)}
    masks = [sum(1 << index[s] for s in f.species) for f in foes]
    if _match(masks) is None:  # contradictory record: prune nothing rather than everything
        return
    feasible = [0] * len(foes)
    for f in range(len(foes)):
        for s in range(len(SPECIES)):
            if masks[f] >> s & 1 and not feasible[f] >> s & 1:
                trial = list(masks)
                trial[f] = 1 << s
                match = _match(trial)
                if match is not None:
                    for g, t in enumerate(match):
                        feasible[g] |= 1 << t
    for f, fish in enumerate(foes):
        fish.species = {s for s in fish.species if feasible[f] >> index[s] & 1}


def _match(masks):
    """A distinct species for every fish (Kuhn's augmenting paths), or None."""
    owner = {}

    def augment(f, seen):
        for s in range(len(SPECIES)):
            if masks[f] >> s & 1 and s not in seen:
                seen.add(s)
                if s not in owner or augment(owner[s], seen):
                    owner[s] = f
                    return True
        return False

    for f in range(len(masks)):
        if not augment(f, set()):
            return None
    result = [0] * len(masks)
    for s, f in owner.items():
        result[f] = s
    return result
