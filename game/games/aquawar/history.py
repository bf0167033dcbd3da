"""What the history pages show of a finished Aquawar match: the summary's rounds with both teams and
an HP chart per round, and the species a replay may name.

A finished match hides nothing any more (its audience is ``"all"``), so the summary may show every
species; a replay shows only the species its frames name.
"""
from .log import ROUND_END_REASONS
from .texts import image as fish_image
from .texts import name as species_name

START_HP = 400
TEAM_SIZE = 4
FULL_HP = TEAM_SIZE * START_HP


def team(pick):
    if pick is None:
        return None
    return [
        {
            "species": species,
            "name": species_name(species),
            "image": fish_image(species),
            "mimic_of": species_name(pick["mimic"]) if species == "mimic_fish" and pick["mimic"] else None,
        }
        for species in pick["fish"]
    ]


def round_rows(seen, names, charts):
    """Every round that had a team picked, the one a resignation cut short included."""
    pairs = list(seen["past_picks"])
    if seen["end_reason"] != "rounds" and any(seen["picks"]):
        # The engine files a round's picks under past_picks only when the round ends.
        pairs.append(seen["picks"])
    rounds = []
    for index, pair in enumerate(pairs):
        played = seen["rounds"][index] if index < len(seen["rounds"]) else None
        first_mover = played["first_mover"] if played else seen["first_mover"]
        rounds.append(
            {
                "number": index + 1,
                "winner": names[played["winner"]] if played else None,
                "turns": played["turns"] if played else None,
                "reason": ROUND_END_REASONS.get(played["reason"], played["reason"]) if played else None,
                "first_mover": names[first_mover] if first_mover is not None else None,
                "teams": [{"name": names[side], "fish": team(pair[side])} for side in (0, 1)],
                "chart": charts[index] if index < len(charts) else None,
            }
        )
    return rounds


def hp_series(commands):
    """Per round, ``[(turn, hp of side 0, hp of side 1)]``: each side's living fish after each turn.

    ``commands``: ``[(version, seat, command, events)]`` in order. Read from the public
    events (``hp_loss``, ``damage`` and ``heal`` carry the fish's new HP, never below 0), not from
    states: the engine clears the board as soon as a round ends, so the state after the deciding
    turn no longer shows it. A fish dies at 0 HP and is never healed again, so the sum over a whole
    side is the sum over its living fish.
    """
    rounds = []
    hp = None
    turn = 0
    for _version, _seat, command, events in commands:
        if "act" in command and hp is not None:
            turn += 1
        for event in events:
            kind = event["type"]
            if kind == "round_start":
                hp = [[START_HP] * TEAM_SIZE, [START_HP] * TEAM_SIZE]
                turn = 0
                rounds.append([(0, FULL_HP, FULL_HP)])
            elif kind in ("hp_loss", "damage", "heal"):
                hp[event["side"]][event["pos"]] = event["hp"]
            elif kind == "round_end":
                turn = event["turns"]
        if hp is None:
            continue
        ends_round = any(e["type"] in ("round_end", "match_end") for e in events)
        if "act" in command or ends_round:
            point = (turn, sum(hp[0]), sum(hp[1]))
            series = rounds[-1]
            if series[-1][0] == point[0]:
                series[-1] = point
            else:
                series.append(point)
        if ends_round:
            hp = None
    return rounds


def named_species(frames):
    """Every species id a frame names: the only ones whose names and drawings the page may carry."""
    named = set()
    for frame in frames:
        for team_seen in frame["view"]["teams"]:
            for fish in team_seen:
                named.update(s for s in (fish["fish"], fish["mimic_of"]) if s)
        for pick in [*frame["view"]["picks"], *(p for pair in frame["view"]["past_picks"] for p in pair)]:
            if pick:
                named.update(pick["fish"] + ([pick["mimic"]] if pick["mimic"] else []))
    return sorted(named)
