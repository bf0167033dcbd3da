"""ActionInfo: what the official program told a player about one action, rebuilt from our events.

The input is one action's events **as one seat's projection shows them** and that seat's view of
the state before the action, nothing else, so the result can hold no fact the rules hide from the
seat. The official program knew everything and sometimes said more; where our projection does not
hold a value, it is derived from what the projection does hold (docs/contest-programs.md,
"ActionInfo"):

- ``skill.targets[].value``, the damage a hit was expected to do before any mitigation: for the
  seat's own actions it follows from its own ATK; for the opponent's it is the first amount our
  projection shows on the target (a block's or reduction's ``amount``, else the damage), because
  the opponent's ATK is hidden. A hit that a shared-damage passive split before any amount shows
  is estimated from what the fish kept (the smallest amount of which 70 % gives it).
- a ``deflect`` passive's value is the amount the sharing fish kept: the amount of a 70 %
  reduction that follows, else the damage it took (the official program sent the Eel's kept
  amount or a Clownfish's incoming amount; which of the two a share was is hidden for the
  opponent's fish, and the SDK never reads the value).

``time`` numbers the hits and passives of the action in the order the engine resolved them, which
is the official order (a block is a ``reduce`` passive and then a hit of 0).
"""
from ..engine.species import SPECIES

NORMAL_ATTACK = "normalattack"
CATEGORIES = {"aoe": "aoe", "harm_ally": "infight", "crit": "crit", "silent": "subtle"}
COUNTER_DAMAGE = 30.0
EXPLOSION_DAMAGE = 40.0
SELF_HARM_DAMAGE = 50
FIXED_CRIT = 120
# The official program kept the 70 % reduction's ratio in a 32-bit float and sent it widened.
REDUCE_RATIO = 0.30000001192092896
BLOCKED = 0.0


def _own_expected(action, before, seat):
    """``[(side, pos, value)]`` an action of the seat's own was expected to deal, from its own ATK."""
    atk = before["teams"][seat][action["actor"]]["atk"]
    enemy = 1 - seat
    if action["kind"] == "attack":
        return [(enemy, action["enemy"], atk * 50 // 100)]
    category = action["category"]
    if category == "aoe":
        return [(enemy, j, atk * 35 // 100) for j, fish in enumerate(before["teams"][enemy]) if fish["alive"]]
    if category == "harm_ally":
        return [(seat, action["ally"], SELF_HARM_DAMAGE)]
    if category == "crit":
        if action["skill"] in ("sea_wolf", "sea_turtle"):
            return [(enemy, action["enemy"], FIXED_CRIT)]
        rate = 140 if before["teams"][enemy][action["enemy"]]["hp"] < 160 else 120
        return [(enemy, action["enemy"], atk * rate // 100)]
    return []


def _seen_targets(action, before):
    """The fish the opponent's action aimed at, as the projection names them."""
    side = action["player"]
    other = 1 - side
    if action["kind"] == "attack":
        return [(other, action["enemy"])]
    category = action["category"]
    if category == "aoe":
        return [(other, j) for j, fish in enumerate(before["teams"][other]) if fish["alive"]]
    if category == "crit":
        return [(other, action["enemy"])]
    return []


def _skill(action, seen_amounts, before, seat):
    if action["kind"] == "attack":
        kind, is_skill = NORMAL_ATTACK, False
    else:
        kind, is_skill = CATEGORIES[action["category"]], True
    if kind == "subtle":
        # The official program sent no list for a skill with no visible effect.
        return {"type": kind, "isSkill": True, "targets": None}
    if action["player"] == seat:
        expected = _own_expected(action, before, seat)
    elif kind == "infight":
        # Hitting a teammate always does the rules' fixed 50.
        expected = [(action["player"], action["ally"], SELF_HARM_DAMAGE)]
    else:
        expected = [(side, pos, seen_amounts.get((side, pos))) for side, pos in _seen_targets(action, before)]
    targets = [{"pos": pos, "isEnemy": side != seat, "value": value} for side, pos, value in expected]
    return {"type": kind, "isSkill": is_skill, "targets": targets}


class _Entries:
    """Hits and passives in resolution order, with the running ``time`` shared by both lists."""

    def __init__(self, seat):
        self.seat = seat
        self.hit, self.passive = [], []
        self.time = 0

    def _stamp(self, entry):
        self.time += 1
        entry["time"] = self.time
        return entry

    def add_hit(self, side, pos, value, traceable):
        self.hit.append(self._stamp({"target": pos, "isEnemy": side != self.seat, "value": value,
                                     "traceable": traceable}))

    def add_passive(self, kind, side, pos, value):
        entry = self._stamp({"type": kind, "source": pos, "isEnemy": side != self.seat, "value": value})
        self.passive.append(entry)
        return entry


def _unshared(amount, shares):
    """The smallest amount of which a fish keeps ``amount`` after ``shares`` 70 % shares."""
    for _ in range(shares):
        amount = -(-amount * 10 // 7)
    return amount


def action_info(events, seat, before):
    """The ActionInfo of one action for ``seat``: ``events`` are the action command's events as
    ``seat`` sees them (the ``action`` event first), ``before`` is ``seat``'s view before it."""
    action = events[0]
    actor_side = action["player"]
    entries = _Entries(seat)
    # Shares still resolving, per fish: their deflect entries, given a value at the fish's next amount.
    open_shares = {}
    # The first amount each directly attacked fish showed, with the shares it made before showing it.
    seen_amounts = {}

    def shared_onto(fish):
        return any(side == fish[0] and pos != fish[1] for side, pos in open_shares)

    def amount_seen(fish, amount, direct):
        if direct and fish not in seen_amounts:
            seen_amounts[fish] = _unshared(amount, len(open_shares.get(fish, ())))
        for entry in open_shares.get(fish, ()):
            if entry["value"] is None:
                entry["value"] = float(amount)

    for event in events[1:]:
        kind = event["type"]
        fish = (event.get("side"), event.get("pos"))
        if kind == "avoid" or (kind == "reduce" and event["to"] == 0):
            direct = fish[0] != actor_side and not shared_onto(fish)
            amount_seen(fish, event["amount"], direct)
            entries.add_passive("reduce", *fish, BLOCKED)
            entries.add_hit(*fish, 0, direct)
        elif kind == "reduce":
            amount_seen(fish, event["amount"], True)
            entries.add_passive("reduce", *fish, REDUCE_RATIO)
        elif kind == "share":
            open_shares.setdefault(fish, []).append(entries.add_passive("deflect", *fish, None))
        elif kind == "damage":
            amount_seen(fish, event["amount"], event["direct"])
            open_shares.pop(fish, None)
            entries.add_hit(*fish, event["amount"], event["direct"])
        elif kind == "heal":
            entries.add_passive("heal", *fish, float(event["amount"]))
        elif kind == "counter":
            entries.add_passive("counter", *fish, COUNTER_DAMAGE)
        elif kind == "explode":
            entries.add_passive("explode", *fish, EXPLOSION_DAMAGE)
    info = {"ActionFish": action["actor"]}
    if entries.hit:
        info["hit"] = entries.hit
    if entries.passive:
        info["passive"] = entries.passive
    info["skill"] = _skill(action, seen_amounts, before, seat)
    return info


def species_id(species):
    """The official fish id (1-12) of one of our species ids."""
    return SPECIES.index(species) + 1
