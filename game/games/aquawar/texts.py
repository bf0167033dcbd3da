"""Display names and short skill texts of the twelve species (from the rules and their rulings).

Nothing here knows which fish a viewer may see: callers only ask about species they may show.
"""
from functools import lru_cache

from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.utils.translation import gettext_lazy as _

NAMES = {
    "archerfish": _("Archerfish"),
    "pufferfish": _("Pufferfish"),
    "electric_eel": _("Electric Eel"),
    "sunfish": _("Sunfish"),
    "sea_wolf": _("Sea Wolf"),
    "manta_ray": _("Manta Ray"),
    "sea_turtle": _("Sea Turtle"),
    "octopus": _("Octopus"),
    "great_white_shark": _("Great White Shark"),
    "hammerhead_shark": _("Hammerhead Shark"),
    "clownfish": _("Clownfish"),
    "mimic_fish": _("Mimic Fish"),
}

_GUARD = _("After an enemy's direct attack leaves a teammate below 120 HP, deal 30 damage to the attacker.")
# Skill texts are never %-formatted; without the flag xgettext reads "30% chance" as a "% c"
# directive and msgfmt then refuses translations that don't repeat it.
# xgettext:no-python-format
_SHARE = _(
    "When hit by a direct attack while teammates live, keep 70% of the damage; the teammates split 30%. "
    "ATK +20 for every 200 damage taken."
)
# xgettext:no-python-format
_DODGE = _("30% chance to dodge any damage.")
_REGEN = _("After taking damage, if still alive, heal 20 HP.")
# xgettext:no-python-format
_AOE = _("Hit every living enemy for 35% of ATK.")
_HARM_ALLY = _("Deal 50 damage to a teammate; ATK +70 for good.")
# xgettext:no-python-format
_REDUCE = _("A teammate or itself takes 70% less from its next direct hit; ATK +20 for good.")
# xgettext:no-python-format
_LOWEST = _("Hit the enemy with the lowest HP for 120% of ATK (140% if it is below 160 HP).")

SKILLS = {
    "archerfish": (_GUARD, _AOE),
    "pufferfish": (_GUARD, _HARM_ALLY),
    "electric_eel": (_SHARE, _AOE),
    "sunfish": (_SHARE, _HARM_ALLY),
    "sea_wolf": (_DODGE, _("Deal 120 critical damage to one enemy.")),
    "manta_ray": (_DODGE, _REDUCE),
    "sea_turtle": (
        # xgettext:no-python-format
        _("Three shields, each blocking one instance of damage; after that, 30% chance to dodge."),
        _(
            "A teammate heals 20 HP after its next direct hit if it survives; on the first three uses, "
            "also deal 120 critical damage to one enemy."
        ),
    ),
    "octopus": (_REGEN, _REDUCE),
    "great_white_shark": (_REGEN, _LOWEST),
    "hammerhead_shark": (
        _("Explodes for 40 damage on the attacker when a direct attack defeats it. ATK +15 while below 80 HP."),
        _LOWEST,
    ),
    "clownfish": (
        _("After a direct attack leaves it below 120 HP, deal 30 damage to the attacker."),
        # xgettext:no-python-format
        _(
            "A teammate keeps only 70% of its next direct hit, the others split 30%; on the first three uses, "
            "also hit every enemy for 35% of ATK."
        ),
    ),
    "mimic_fish": (
        _("Before the round, copies the passive and active skill of one of the other eleven species."),
        _("None of its own: uses the copied skill."),
    ),
}


@lru_cache(maxsize=None)
def image(key):
    """The drawing for a species (or "hidden", "dead"), if one has been drawn; None otherwise."""
    path = f"img/fish/{key}.svg"
    return static(path) if finders.find(path) else None


def name(species):
    return NAMES[species]


def skill_text(species, mimic_of=None):
    """(passive, active) of a fish; a Mimic with a known copy target shows what it really does."""
    if species == "mimic_fish" and mimic_of:
        return SKILLS[mimic_of]
    return SKILLS[species]
