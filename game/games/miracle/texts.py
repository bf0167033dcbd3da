"""Words of 神迹之战 for people: the names of the cards, the engine's refusals, how a match ends.

Nothing here knows what a viewer may see: callers only ask about cards they may show.
"""
from functools import lru_cache

from django.utils.translation import gettext_lazy as _

CREATURES = {
    "swordsman": _("Swordsman"),
    "archer": _("Archer"),
    "black_bat": _("Black Bat"),
    "priest": _("Priest"),
    "volcano_dragon": _("Volcano Dragon"),
    "frost_dragon": _("Frost Dragon"),
    # Summoned by the Inferno Flame, never part of a deck.
    "inferno": _("Inferno"),
}
ARTIFACTS = {
    "holy_light": _("Holy Light"),
    "inferno_flame": _("Inferno Flame"),
    "salamander_shield": _("Salamander Shield"),
    "wind_blessing": _("Wind Blessing"),
}

# Every code the engine refuses a command with (docs/miracle-engine.md), as a player reads it.
REFUSALS = {
    "bad_player": _("That seat does not play this match."),
    "malformed": _("That command is not complete."),
    "unknown_command": _("There is no such move."),
    "match_over": _("The match is over."),
    "wrong_phase": _("That move does not fit this part of the match."),
    "not_your_turn": _("It is not your turn."),
    "already_submitted": _("Your deck is already in."),
    "missing_artifact": _("Choose an artifact for your deck."),
    "unknown_artifact": _("There is no such artifact."),
    "unknown_creature": _("There is no such creature."),
    "repeated_creature": _("Choose three different creature types."),
    "deck_size": _("Choose exactly three creature types."),
    "not_in_deck": _("That creature is not in your deck."),
    "bad_level": _("A creature's level is 1, 2 or 3."),
    "off_map": _("That cell is not on the map."),
    "no_mana": _("Not enough mana."),
    "no_unit": _("No unit of that type is left to summon (all on the board or cooling down)."),
    "not_spawn_point": _("Summon only on one of your free spawn points."),
    "occupied": _("That cell is taken."),
    "unknown_unit": _("There is no such unit."),
    "not_your_unit": _("That unit is not yours."),
    "summoning_sickness": _("A unit cannot act in the turn it was summoned."),
    "already_acted": _("That unit has already acted this turn."),
    "same_cell": _("The unit is already there."),
    "unreachable": _("The unit cannot reach that cell this turn."),
    "unknown_target": _("There is no such target."),
    "friendly_target": _("You cannot attack your own side."),
    "zero_attack": _("A unit with no attack cannot attack."),
    "out_of_range": _("The target is out of range."),
    "cannot_hit_flyer": _("That unit cannot attack flying units."),
    "bad_target": _("The artifact cannot be used on that."),
    "artifact_in_use": _("Your artifact is still in use."),
    "artifact_cooling": _("Your artifact is cooling down."),
    "forbidden_cell": _("The artifact cannot be used on that cell."),
}

END_REASONS = {
    "miracle_destroyed": _("miracle destroyed"),
    "turn_limit": _("turn limit reached"),
    "resign": _("resignation"),
    "timeout": _("time ran out"),
    "illegal": _("an illegal move"),
    "abandon": _("the match was abandoned"),
}
# Who wins at the turn limit, in the rules' order.
TIEBREAKS = {
    "miracle_hp": _("more miracle HP left"),
    "lost_stars": _("fewer level stars lost"),
    "second_player": _("all even: the second player wins"),
}


def creature_name(type_id):
    return CREATURES[type_id]


@lru_cache(maxsize=8)
def creature_names(language):
    """Every creature's name in ``language``, which must be the active one: the board names each
    token on every redraw."""
    return {type_id: str(name) for type_id, name in CREATURES.items()}


def artifact_name(artifact_id):
    return ARTIFACTS[artifact_id]
