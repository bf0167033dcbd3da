"""The replay viewer's data: the map as the audience sees it and the drawings of the cards its frames
name (miracle/js/replay.js draws each frame's view on it). Nothing a frame does not name."""
from . import cards, mapdraw
from .texts import artifact_name, creature_name


def named_cards(frames):
    """Creature types and artifacts the frames themselves show (views and events)."""
    creatures, artifacts = set(), set()
    for frame in frames:
        view = frame["view"]
        for unit in view["units"]:
            creatures.add(unit["type"])
        for deck in view["decks"]:
            if deck:
                creatures.update(deck["creatures"])
                artifacts.add(deck["artifact"])
        for event in frame["events"]:
            if event["type"] in ("summon", "death"):
                creatures.add(event["unit_type"])
    return sorted(creatures), sorted(artifacts)


def replay_data(frames, audience):
    first_mover = frames[-1]["view"]["first_mover"]
    flip = audience in (0, 1) and audience != first_mover
    creatures, artifacts = named_cards(frames)
    data = {
        "map": {"view_box": mapdraw.VIEW_BOX, "hex": mapdraw.HEX_POINTS, "cells": mapdraw.CELLS[flip],
                "garrisons": list(mapdraw.GARRISONS), "flipped": flip},
        "seat": audience if audience in (0, 1) else None,
        "creatures": {t: {"name": str(creature_name(t)), "symbol": cards.symbol(t)} for t in creatures},
        "artifacts": {a: {"name": str(artifact_name(a)), "image": cards.artifact_image(a)} for a in artifacts},
    }
    return {"data": data, "rounds": ()}
