"""Wounds, deaths, successors and the end (rulings 35–40, 44).

Damage has two levels: ``"wound"`` (致伤) and ``"death"`` (致死); wound-level damage on a wounded
character kills it. A death hands the ID to the next successor of its chain at once (same human,
country, recognition); with none left the ID leaves for good.
"""
from __future__ import annotations

from .. import roster
from ..night import luck
from ..views import knowledge
from ..state import PHASES, country_slots, event, holder, in_play, phase_key, rand_below

# Ruling 35: 伤判 1 heals 3/10, kills 3/10, else the wound stays; 伤判 2: 1/2 each.
FIRST_ROLL = (3, 3, 10)


def damage(state, events, ident, level, source=None, cause="skill"):
    """Apply wound- or death-level damage to ID ``ident``; ``source`` is the country that dealt it
    (kept for a bot 在野's choice of country, ruling 24). Returns what happened."""
    s = state["slots"][ident - 1]
    if not in_play(s):
        return "none"
    # Ruling 24: 残兵之首's targets of nights 1–3 are the server's draw, so they make no grudge.
    if not (cause == "残兵之首" and state["night"] <= 3):
        grudge(state, ident, source, 2 if level == "death" else 1)
    if level == "death" or s["status"] == "wounded":
        kill(state, events, ident, cause=cause)
        return "death"
    wound(state, events, ident)
    return "wound"


def grudge(state, ident, source, amount):
    """An unjoined 在野 hurt by a country (``amount`` > 0) or whose passive it used up (0) will ask
    to join it (ruling 24): ``hurt_by[id][country] = [damage, order of the first]``."""
    if state["slots"][ident - 1]["country"] is not None or source is None:
        return
    hurt = state["hurt_by"].setdefault(str(ident), {})
    previous = hurt.get(source, [0, state["seq"]])
    hurt[source] = [previous[0] + amount, previous[1]]


def wound(state, events, ident):
    """A wound taken now: at night N (or its feedback) judged on day N; by day N's vote on day N+1."""
    s = state["slots"][ident - 1]
    s["status"] = "wounded"
    by_day = PHASES.index(state["phase"]) >= PHASES.index("day_wound") if state["phase"] in PHASES else False
    s["wound"] = {"day": state["night"] + (1 if by_day else 0), "roll": 1}
    state["night_report"]["wounds"].append(ident)
    events.append(event("wounded", "gm", id=ident, name=holder(s)))
    _tell_owner(state, events, s, "wounded")


def heal(state, events, ident):
    s = state["slots"][ident - 1]
    if s["wound"] is not None and in_play(s):
        # A character outside the game keeps that status; its wound heals all the same.
        s["status"] = "normal" if s["status"] == "wounded" else s["status"]
        s["wound"] = None
        events.append(event("healed", "gm", id=ident, name=holder(s)))
        _tell_owner(state, events, s, "healed")


def _tell_owner(state, events, s, what):
    if s["controller"] is not None:
        events.append(event("status", [s["controller"]], character=holder(s), status=what))


def kill(state, events, ident, cause="skill", natural=False):
    """The holder of ``ident`` dies; its successor takes over, or the ID leaves."""
    s = state["slots"][ident - 1]
    name = holder(s)
    state["dead"].append(name)
    if natural or cause == "leave":
        state["unrevivable"].append(name)
    was = {"identity": s["identity"], "rank": s["rank"]}
    country = s["country"]
    if country and was["identity"] == "君主":
        state["countries"][country]["monarch_dead"] = True
    at_night = state["phase"] in PHASES[:3]
    if not natural:
        state["night_report"]["deaths"].append({"id": ident, "name": name, "country": country, "night": at_night,
                                                "phase": state["phase"], "cause": cause})
    events.append(event("died", "gm", id=ident, name=name, cause=cause, natural=natural))
    _tell_owner(state, events, s, "dead")
    successor = _next_successor(state, s)
    if successor is None:
        s["status"] = "left"
        s["wound"] = None
        events.append(event("left", "gm", id=ident))
        if was["rank"] == "主" and country:
            _promote(state, events, country, was["identity"])
    else:
        s["holder"] = s["chain"].index(successor)
        facts = state["data"]["characters"].get(successor, {})
        # Ruling 37: the data's identity, else the predecessor's; 君主 never passes (it becomes the
        # identity without effect, 护卫, unless the data says otherwise).
        default = "护卫" if was["identity"] == "君主" else was["identity"]
        s["identity"] = facts.get("identity") or default
        s["status"] = "normal"
        s["wound"] = None
        events.append(event("succeeded", "gm", id=ident, name=successor))
        _tell_owner(state, events, s, "succeeded")
        knowledge.on_succession(state, events, s)
    if country:
        check_advisors(state, events, country)


def revive(state, events, ident):
    """起死回生 (R36): a left ID's last holder back in play, unless it died a natural death or by
    脱离游戏, or its country was destroyed."""
    s = state["slots"][ident - 1]
    name = holder(s)
    if s["status"] != "left" or name in state["unrevivable"] or (
            s["country"] and state["countries"][s["country"]]["destroyed"]):
        return
    s["status"], s["wound"] = "normal", None
    state["dead"].remove(name)
    events.append(event("revived", "gm", id=ident, name=name))
    _tell_owner(state, events, s, "revived")


def _next_successor(state, s):
    for name in s["chain"][s["holder"] + 1:]:
        if name not in state["dead"]:
            return name
    return None


def _promote(state, events, country, identity):
    """Ruling 38: when a 主's ID leaves, the 副 (军师 or 杀手) becomes 主."""
    for other in country_slots(state, country):
        if in_play(other) and other["identity"] == identity and other["rank"] == "副":
            other["rank"] = "主"
            events.append(event("promoted", "gm", id=other["id"], identity=identity))
            return


def has_advisor(state, country):
    return any(in_play(s) and s["identity"] == "军师" for s in country_slots(state, country))


def check_advisors(state, events, country):
    """Ruling 38: once no 军师's ID is in play the country may only 刺杀 and vote: from day N when it
    happens in night N's resolution, from night N+1 when by day, at once (told to the country) when
    by a 立刻 action during the night's actions."""
    info = state["countries"][country]
    if info["no_advisor_from"] is not None or has_advisor(state, country):
        return
    phase = state["phase"]
    if phase == "night_action":
        info["no_advisor_from"] = phase_key(state)
        seats = sorted({s["controller"] for s in country_slots(state, country) if s["controller"] is not None})
        events.append(event("no_advisor", seats, country=country))
    elif phase in ("night_resolution", "night_feedback"):
        info["no_advisor_from"] = phase_key(state, phase="day_wound")
    else:
        info["no_advisor_from"] = phase_key(state, night=state["night"] + 1, phase="night_action")
    events.append(event("no_advisor", "gm", country=country, start=info["no_advisor_from"]))


def advisor_rule_applies(state, country):
    start = country and state["countries"][country]["no_advisor_from"]
    return start is not None and start is not False and phase_key(state) >= start


def wound_rolls(state, events):
    """Ruling 35's 伤判 for every wound due today (游戏外 included), announced by ID."""
    outcomes = []
    for s in state["slots"]:
        w = s["wound"]
        if not in_play(s) or w is None or w["day"] != state["night"]:
            continue
        outcome = luck.fixed(state, "伤判", s["id"], fits=lambda out: w["roll"] == 1 or out != "stays")
        by_gm = outcome is not luck.NOT_FIXED
        outcome = outcome if by_gm else _judge(state, s, w)
        events.append(event("roll", "gm", kind="伤判", id=s["id"], roll=w["roll"], outcome=outcome, fixed_by_gm=by_gm))
        if outcome == "healed":
            heal(state, events, s["id"])
        elif outcome == "died":
            kill(state, events, s["id"], cause="伤判")
        else:
            s["wound"] = {"day": state["night"] + 1, "roll": 2}
        outcomes.append({"id": s["id"], "outcome": outcome})
    events.append(event("wound_judgement", outcomes=outcomes))


def _judge(state, s, w):
    if s.get("luck"):
        # Ruling 30: 优判 heals, 劣判 kills, no draw.
        return "healed" if s["luck"] == "优" else "died"
    if w["roll"] == 1:
        r = rand_below(state, 10)
        return "healed" if r < FIRST_ROLL[0] else "died" if r < FIRST_ROLL[0] + FIRST_ROLL[1] else "stays"
    return "healed" if rand_below(state, 2) == 0 else "died"


def alive(state, country):
    return sum(1 for s in country_slots(state, country) if in_play(s))


def threshold(state, country):
    with_monarch, without = roster.THRESHOLD[state["size"]]
    return without if state["countries"][country]["monarch_dead"] else with_monarch


def end_check(state, events):
    """Ruling 40: destroyed countries' IDs leave at once; two destroyed → the third wins; the last
    ones destroyed together → draw."""
    fallen = [c for c in roster.COUNTRIES
              if not state["countries"][c]["destroyed"] and alive(state, c) <= threshold(state, c)]
    for country in fallen:
        state["countries"][country]["destroyed"] = True
        for s in country_slots(state, country):
            if in_play(s):
                s["status"] = "left"
                s["wound"] = None
        events.append(event("destroyed", country=country))
    standing = [c for c in roster.COUNTRIES if not state["countries"][c]["destroyed"]]
    if len(standing) == 1:
        finish(state, events, standing[0], "conquest")
    elif not standing:
        finish(state, events, "draw", "destroyed_together")


def finish(state, events, winner, reason):
    state["winner"] = winner
    state["end_reason"] = reason
    # Ruling 40: the winners are the humans holding the winning country's characters, 平民 included.
    state["winning_seats"] = sorted({s["controller"] for s in country_slots(state, winner)} - {None})
    state["phase"] = "over"
    state["deadline"] = None
    state["steps"] = []
    state["pending"] = []
    events.append(event("game_over", winner=winner, reason=reason))
