"""The twelve species: what each one's passive and active do, in one table.

A Mimic Fish behaves exactly as the species it copies (its ``kind``); only assertions and the
owner's own view see it as ``mimic_fish``.
"""

SPECIES = (
    "archerfish",
    "pufferfish",
    "electric_eel",
    "sunfish",
    "sea_wolf",
    "manta_ray",
    "sea_turtle",
    "octopus",
    "great_white_shark",
    "hammerhead_shark",
    "clownfish",
    "mimic_fish",
)
SPECIES_SET = frozenset(SPECIES)
MIMIC = "mimic_fish"

# Passives.
GUARD_COUNTER = "guard_counter"  # 30 to the attacker after a teammate is hit below 120 HP
SHARE = "share"  # keep 70 %, teammates split 30 %; ATK +20 per 200 damage taken
DODGE = "dodge"  # 30 % dodge of every damage instance
SHIELD = "shield"  # 3 shields, then 30 % dodge
REGEN = "regen"  # +20 HP after damage when still alive
EXPLODE = "explode"  # 40 to the attacker when a direct attack leaves it at 0; ATK +15 below 80 HP
SELF_COUNTER = "self_counter"  # 30 to the attacker after being hit below 120 HP

# Actives.
AOE = "aoe"  # 35 % ATK to every living enemy
HARM_ALLY = "harm_ally"  # 50 to a teammate, ATK +70
CRIT = "crit"  # 120 to one enemy
REDUCE = "reduce"  # teammate or self: next direct hit reduced by 70 %; ATK +20
HEAL_CRIT = "heal_crit"  # teammate: heal 20 after next direct hit; first 3 uses: 120 to one enemy
LOWEST_CRIT = "lowest_crit"  # lowest-HP enemy: 120 % ATK, 140 % when it is below 160 HP
SHARE_AOE = "share_aoe"  # teammate: next direct hit shared; first 3 uses: 35 % ATK to all enemies

PASSIVE = {
    "archerfish": GUARD_COUNTER,
    "pufferfish": GUARD_COUNTER,
    "electric_eel": SHARE,
    "sunfish": SHARE,
    "sea_wolf": DODGE,
    "manta_ray": DODGE,
    "sea_turtle": SHIELD,
    "octopus": REGEN,
    "great_white_shark": REGEN,
    "hammerhead_shark": EXPLODE,
    "clownfish": SELF_COUNTER,
}

ACTIVE = {
    "archerfish": AOE,
    "pufferfish": HARM_ALLY,
    "electric_eel": AOE,
    "sunfish": HARM_ALLY,
    "sea_wolf": CRIT,
    "manta_ray": REDUCE,
    "sea_turtle": HEAL_CRIT,
    "octopus": REDUCE,
    "great_white_shark": LOWEST_CRIT,
    "hammerhead_shark": LOWEST_CRIT,
    "clownfish": SHARE_AOE,
}

# Skills with extra effects only on a fish's first three uses in a round.
LIMITED_USES = 3

# Which targets each active takes: (ally, enemy). ally: None, "mate" (a living teammate, not
# itself) or "mate_or_self"; enemy: None, "any" (a living enemy) or "lowest" (a living enemy with
# the lowest HP). HEAL_CRIT names an enemy only on its first three uses.
SKILL_TARGETS = {
    AOE: (None, None),
    HARM_ALLY: ("mate", None),
    CRIT: (None, "any"),
    REDUCE: ("mate_or_self", None),
    HEAL_CRIT: ("mate", "any"),
    LOWEST_CRIT: (None, "lowest"),
    SHARE_AOE: ("mate", None),
}

# The category of a skill as the other side sees it (rules, "游戏过程可知信息详细说明").
SILENT = "silent"


def skill_category(active, uses):
    """The public category of ``active`` used by a fish that has used it ``uses`` times before."""
    if active == HEAL_CRIT:
        return CRIT if uses < LIMITED_USES else SILENT
    if active == SHARE_AOE:
        return AOE if uses < LIMITED_USES else SILENT
    if active == REDUCE:
        return SILENT
    if active == LOWEST_CRIT:
        return CRIT
    return active
