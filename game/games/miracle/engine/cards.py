"""Creatures and artifacts, loaded from ``data/cards.json`` under the record format's ids.

Every number comes from the data file; the rulings that correct the original judge (Black Bat L3
costs 5, the Inferno costs nothing of its own, priests are anti-air) are already in it.
"""
import json
from importlib import resources

_CARDS = json.loads(resources.files(__package__).joinpath("data/cards.json").read_text(encoding="utf-8"))

# Record id -> cards.json name. The order is the rules' card list; deck listings follow it.
CREATURE_NAMES = {
    "swordsman": "Swordsman",
    "archer": "Archer",
    "black_bat": "BlackBat",
    "priest": "Priest",
    "volcano_dragon": "VolcanoDragon",
    "frost_dragon": "FrostDragon",
}
INFERNO = "inferno"
ARTIFACT_NAMES = {
    "holy_light": "HolyLight",
    "inferno_flame": "InfernoFlame",
    "salamander_shield": "SalamanderShield",
    "wind_blessing": "WindBlessing",
}
DECK_CREATURES = tuple(CREATURE_NAMES)
ARTIFACTS = tuple(ARTIFACT_NAMES)
PRIEST = "priest"
VOLCANO = "volcano_dragon"
HOLY_LIGHT, INFERNO_FLAME, SALAMANDER_SHIELD, WIND_BLESSING = ARTIFACTS
LEVELS = (1, 2, 3)


class Level:
    """One creature level's numbers (read-only after load)."""

    __slots__ = ("type", "level", "cost", "atk", "hp", "range_min", "range_max", "move", "cooldown",
                 "flying", "anti_air", "aura_range", "heal_range", "splash")

    def __init__(self, type_id, card, data):
        self.type = type_id
        self.level = data["level"]
        self.cost = data["cost"]
        self.atk = data["atk"]
        self.hp = data["hp"]
        self.range_min, self.range_max = data["range"]
        self.move = data["move"]
        self.cooldown = data["cooldown"]
        self.flying = card["flying"]
        self.anti_air = card["anti_air"]
        self.aura_range = self.heal_range = self.splash = 0
        for ability in card["abilities"]:
            index = self.level - 1
            if "atk_up_range" in ability:
                self.aura_range = ability["atk_up_range"][index]
            if "heal_range" in ability:
                self.heal_range = ability["heal_range"][index]
            if "splash_damage" in ability:
                self.splash = ability["splash_damage"][index]


def _load_creatures():
    by_name = {c["name"]: c for c in _CARDS["creatures"]}
    names = dict(CREATURE_NAMES, inferno="Inferno")
    stats, counts = {}, {}
    for type_id, name in names.items():
        card = by_name[name]
        for data in card["levels"]:
            stats[type_id, data["level"]] = Level(type_id, card, data)
        if type_id != INFERNO:
            c = card["unit_counts"]
            counts[type_id] = (c["start"], c["turn51"], c["turn76"])
    return stats, counts


# STATS[(type, level)] -> Level; the Inferno has level 1 only.
STATS, UNIT_COUNTS = _load_creatures()


def _load_artifacts():
    by_name = {a["name"]: a for a in _CARDS["artifacts"]}
    return {a: (by_name[n]["cost"], by_name[n]["cooldown"], by_name[n]["params"]) for a, n in ARTIFACT_NAMES.items()}


# ARTIFACT_STATS[id] -> (cost, cooldown, params from cards.json)
ARTIFACT_STATS = _load_artifacts()
HOLY_LIGHT_RANGE = ARTIFACT_STATS[HOLY_LIGHT][2]["affect_range"]
HOLY_LIGHT_ATK = ARTIFACT_STATS[HOLY_LIGHT][2]["atk_up"]
# The bonus of a HolyLight cast in turn N ends when turn N + 3 ends (ruling 30).
HOLY_LIGHT_TURNS = ARTIFACT_STATS[HOLY_LIGHT][2]["effect_rounds"] - 1
INFERNO_DAMAGE = ARTIFACT_STATS[INFERNO_FLAME][2]["damage"]
INFERNO_RANGE = ARTIFACT_STATS[INFERNO_FLAME][2]["affect_range"]
SHIELD_HP = ARTIFACT_STATS[SALAMANDER_SHIELD][2]["hp_up"]
WIND_RANGE = ARTIFACT_STATS[WIND_BLESSING][2]["affect_range"]
# InfernoFlame's target: within 7 of the own miracle or 5 of an owned garrison (ruling 31).
INFERNO_MIRACLE_REACH = 7
INFERNO_GARRISON_REACH = 5
