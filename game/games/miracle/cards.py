"""The cards as the page shows them: drawings, the engine's numbers, a line on what each does.

Public knowledge only (the rules' card list): which cards a player holds is the view's business.
"""
from functools import lru_cache

from django.templatetags.static import static
from django.utils.translation import gettext_lazy as _

from .engine.cards import (
    ARTIFACT_STATS, HOLY_LIGHT, HOLY_LIGHT_ATK, HOLY_LIGHT_RANGE, INFERNO_DAMAGE, INFERNO_FLAME, INFERNO_RANGE,
    LEVELS, SALAMANDER_SHIELD, SHIELD_HP, STATS, UNIT_COUNTS, WIND_BLESSING, WIND_RANGE,
)
from .texts import artifact_name, creature_name

ABILITIES = {
    "swordsman": _("A sturdy fighter for the front line."),
    "archer": _("Shoots from 3 to 4 cells away and can hit flying units."),
    "black_bat": _("Flies: crosses abysses and shares a cell with a ground unit; only anti-air units hit it."),
    "priest": _("No attack of its own: raises nearby allies' attack by 1 and heals them by 1 at the end of "
                "your turn. Anti-air."),
    "volcano_dragon": _("Its attack also burns the enemy ground units next to the target, two cells from the "
                        "dragon."),
    "frost_dragon": _("Breathes frost up to 2 cells away and can hit flying units."),
    "inferno": _("Summoned by the Inferno Flame."),
}


def _artifact_effects():
    return {
        HOLY_LIGHT: _("Allies within %(r)s cells are healed to full and gain %(atk)s attack for a few turns.")
        % {"r": HOLY_LIGHT_RANGE, "atk": HOLY_LIGHT_ATK},
        INFERNO_FLAME: _("%(dmg)s damage to every enemy within %(r)s cells, then an Inferno of yours appears "
                         "there (near your miracle or a garrison of yours).") % {"dmg": INFERNO_DAMAGE,
                                                                                 "r": INFERNO_RANGE},
        SALAMANDER_SHIELD: _("One of your creatures gets %(hp)s HP and a holy shield that comes back every "
                             "turn.") % {"hp": SHIELD_HP},
        WIND_BLESSING: _("Your creatures within %(r)s cell of the target may act again.") % {"r": WIND_RANGE},
    }


RADIUS = {HOLY_LIGHT: HOLY_LIGHT_RANGE, INFERNO_FLAME: INFERNO_RANGE, SALAMANDER_SHIELD: 0,
          WIND_BLESSING: WIND_RANGE}


# A drawing's address is looked up once: the board asks for it for every token on every redraw.
@lru_cache(maxsize=None)
def image(type_id):
    return static(f"miracle/img/{type_id}.svg")


@lru_cache(maxsize=None)
def symbol(type_id):
    """The drawing's root for ``<use>``: tinted by the CSS ``color`` of the token."""
    return f"{image(type_id)}#miracle-{type_id}"


@lru_cache(maxsize=None)
def artifact_image(artifact_id):
    return static(f"miracle/img/{artifact_id}.svg")


def artifact_radius(artifact_id):
    return RADIUS[artifact_id]


def creature_card(type_id):
    levels = []
    for level in LEVELS:
        s = STATS[type_id, level]
        reach = str(s.range_max) if s.range_min == s.range_max else f"{s.range_min}–{s.range_max}"
        levels.append({"level": level, "cost": s.cost, "atk": s.atk, "hp": s.hp, "range": reach, "move": s.move,
                       "cooldown": s.cooldown})
    first = STATS[type_id, 1]
    return {"id": type_id, "name": creature_name(type_id), "image": image(type_id), "symbol": symbol(type_id),
            "levels": levels, "counts": UNIT_COUNTS[type_id], "flying": first.flying,
            "anti_air": first.anti_air, "ability": ABILITIES[type_id]}


def artifact_card(artifact_id):
    cost, cooldown, _params = ARTIFACT_STATS[artifact_id]
    return {"id": artifact_id, "name": artifact_name(artifact_id), "image": artifact_image(artifact_id),
            "cost": cost, "cooldown": cooldown, "effect": _artifact_effects()[artifact_id]}
