"""The deduction aid on the match page: beside each hidden enemy of a round in play, the species it
can still be, worked out from nothing but the asking player's own projection (engine.deduction).

It reads the match's whole event log, so it is built only when a player asks for it.
"""
from django.shortcuts import render

from . import engine
from .engine.deduction import candidates
from .texts import name as species_name


def deduction_aid(request, match, seat, projected):
    """A player view (``Presentation.player_views``): the aid for ``seat`` as fragments."""
    aid = [
        {"pos": pos, "species": [{"id": s, "name": species_name(s)} for s in species]}
        for pos, species in options(match, seat, projected)
    ]
    return render(request, "aquawar/_aid.html", {"aid": aid})


def options(match, seat, projected):
    """``[(position, [species])]`` for the enemy's hidden living fish of this round; empty outside
    a live round."""
    if match.status != "live" or match.state is None:
        return []
    seen = engine.view(engine.MatchState.from_json(match.state), seat)
    if seen["phase"] not in ("assert", "act"):
        return []
    enemies = seen["teams"][1 - seat]
    found = candidates(seen, projected(), seat)
    return [(pos, species) for pos, species in enumerate(found) if species is not None and enemies[pos]["alive"]]
