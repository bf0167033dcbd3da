"""Submitting night and day actions, and the checks made on submission (rulings 19–26, 38). The
same checks run again at the close (``night.legality``), where what fails is void and its owner
told why."""
from __future__ import annotations

from ....engines.errors import IllegalCommand
from .. import roster
from ..day import wounds
from ..state import IMMEDIATE_CUTOFF, event, holder, in_play, next_seq, slot, slot_of
from ..gm.setup import DAY_TIMINGS

NIGHT_KINDS = ("assassinate", "skill", "identify", "reassign", "request")


def skills_of(state, name):
    return [s for s in state["data"]["skills"] if s["owner"] == name]


def find_skill(state, name, skill_name):
    skill_name = roster.SKILL_ALIASES.get(skill_name, skill_name) if type(skill_name) is str else skill_name
    for skill in skills_of(state, name):
        if skill["name"] == skill_name:
            return skill
    return None


def actor(state, seat, name):
    """The slot of ``name``, a character the seat controls that holds an ID in play."""
    s = slot_of(state, name) if type(name) is str else None
    if s is None or s["controller"] != seat:
        raise IllegalCommand("not_your_character", f"{name!r} is none of your characters in play")
    return s


def able(state, s, skill=None):
    """Why the slot's holder cannot act now (ruling 19), or None."""
    if not in_play(s):
        return "not_in_play"
    if s["status"] == "wounded" or s["wound"] is not None:
        return "wounded"
    if s["status"] == "outside" and not (skill and skill.get("outside")):
        return "outside"
    return None


def require_able(state, s, skill=None):
    reason = able(state, s, skill)
    if reason:
        raise IllegalCommand(reason, f"{holder(s)} cannot act: {reason}")


def target(state, seat, value):
    """An ID that may be targeted (in play, not 游戏外), given as an ID or as a character the seat
    knows the ID of (ruling 10). Returns ``(id, name or None)``."""
    if type(value) is str:
        for ident, names in state["known"][str(seat)].items():
            s = slot(state, int(ident))
            if value in names and holder(s) == value:
                return int(ident), value
        raise IllegalCommand("unknown_target", f"you know no ID held by {value!r}")
    if type(value) is not int or not 1 <= value <= len(state["slots"]):
        raise IllegalCommand("bad_target", "a target is an ID or a character whose ID you know")
    if not target_ok(state, value):
        raise IllegalCommand("bad_target", f"ID {value} is not in play or is outside the game")
    return value, None


def target_ok(state, ident, name=None):
    s = slot(state, ident)
    return s["status"] in ("normal", "wounded") and (name is None or holder(s) == name)


def no_advisor(state, s):
    if wounds.advisor_rule_applies(state, s["country"]):
        raise IllegalCommand("no_advisor", f"{s['country']} has no 军师: only 刺杀 and votes")


def _subs(state, s):
    return state["subs"].setdefault(str(s["id"]), {})


def _store(state, events, seat, s, kind, entry, at):
    entry.update(seq=next_seq(state), at=at)
    _subs(state, s)[kind] = entry
    # The killer of a 改刀 is kept by ID; the seat named it by character, and may not know its ID.
    detail = {k: v for k, v in entry.items() if k != "killer"}
    events.append(event("submitted", [seat], character=holder(s), action=kind, detail=detail))


def night_open(state):
    """Night actions are taken in 夜晚行动, and again in a 预结算前 revision window."""
    return state["phase"] == "night_action" or bool(state.get("revision"))


def revisable(state, s):
    if state.get("revision") and s["id"] in state["revision"]["locked"]:
        raise IllegalCommand("locked_action", f"{holder(s)}'s actions used a 预结算前 skill and cannot change")


def submit_night(state, events, seat, kind, body, at):
    if not night_open(state):
        raise IllegalCommand("wrong_phase", "night actions are submitted in 夜晚行动")
    s = actor(state, seat, body.get("actor"))
    revisable(state, s)
    subs = _subs(state, s)
    if kind == "assassinate":
        require_able(state, s)
        if s["identity"] != "杀手":
            raise IllegalCommand("not_a_killer", f"{holder(s)} is no 杀手")
        if "skill" in subs:
            raise IllegalCommand("killer_no_skill", "a 杀手 who 刺杀s uses no active skill that night")
        ident, name = target(state, seat, body.get("target"))
        _store(state, events, seat, s, kind, {"target": ident, "named": name}, at)
    elif kind == "identify":
        _identify(state, events, seat, s, body, at)
    elif kind == "reassign":
        _reassign(state, events, seat, s, body, at)
    elif kind == "request":
        _request(state, events, seat, s, body, at)


def _identify(state, events, seat, s, body, at):
    require_able(state, s)
    no_advisor(state, s)
    idents = state["data"]["identifications"].get(holder(s), [])
    index = body.get("index", 0)
    if type(index) is not int or not 0 <= index < len(idents):
        raise IllegalCommand("no_identification", f"{holder(s)} has no identification {index!r}")
    spec = idents[index]
    targets = body.get("targets")
    if type(targets) is not list or not 1 <= len(targets) <= spec["count"]:
        raise IllegalCommand("bad_targets", f"this identification names 1 to {spec['count']} IDs")
    resolved = [target(state, seat, t) for t in targets]
    if len({i for i, _ in resolved}) != len(resolved):
        raise IllegalCommand("bad_targets", "the same ID twice")
    names = body.get("names", [])
    if spec["kind"] == "招揽":
        if s["identity"] != "君主":
            raise IllegalCommand("not_monarch", "招揽 is the 君主's")
        if type(names) is not list or len(names) != 1 or names[0] not in state["free"]:
            raise IllegalCommand("bad_names", "招揽 names one 在野 of this game")
    elif names:
        raise IllegalCommand("bad_names", "only 招揽 names a character")
    entries = _subs(state, s).setdefault("identify", {})
    entry = {"targets": [i for i, _ in resolved], "named": [n for _, n in resolved], "names": names,
             "seq": next_seq(state), "at": at}
    entries[str(index)] = entry
    events.append(event("submitted", [seat], character=holder(s), action="identify", detail=entry))


def _reassign(state, events, seat, s, body, at):
    require_able(state, s)
    country = s["country"]
    if s["identity"] != "军师" or s["rank"] != "主":
        raise IllegalCommand("not_chief_advisor", "改刀 is the 主军师's")
    if state["countries"][country]["reassign_used"]:
        raise IllegalCommand("reassign_used", "改刀 is once per game per country")
    killers = state["initial_killers"].get(country, [])
    killer = body.get("killer")
    if killer is None:
        chosen = killers[0] if killers else None
    else:
        chosen = next((k for k in killers if holder(slot(state, k)) == killer), None)
    if chosen is None:
        raise IllegalCommand("bad_killer", "改刀 names one of the country's initial 杀手")
    ident, name = target(state, seat, body.get("target"))
    _store(state, events, seat, s, "reassign", {"target": ident, "named": name, "killer": chosen,
                                                "killer_name": holder(slot(state, chosen))}, at)


def _request(state, events, seat, s, body, at):
    require_able(state, s)
    country = body.get("country")
    if s["country"] is not None:
        raise IllegalCommand("not_free", "only an unjoined 在野 asks to join")
    if state["night"] < 2:
        raise IllegalCommand("too_early", "主动投奔 starts on night 2")
    if country not in roster.COUNTRIES or state["countries"][country]["destroyed"]:
        raise IllegalCommand("bad_country", "ask a country still standing")
    if not wounds.has_advisor(state, country):
        raise IllegalCommand("no_advisor", f"{country} has no 军师 to accept")
    _store(state, events, seat, s, "request", {"country": country}, at)


def submit_skill(state, events, seat, body, at, resolve_immediately):
    phase = state["phase"]
    s = actor(state, seat, body.get("actor"))
    skill = find_skill(state, holder(s), body.get("skill"))
    if skill is None or skill["timing"] == "被动":
        raise IllegalCommand("no_such_skill", f"{holder(s)} has no active skill {body.get('skill')!r}")
    day = skill["timing"] in DAY_TIMINGS
    wanted = {"白天受伤判定": "day_wound", "白天行动投票": "day_vote"}.get(skill["timing"], "night_action")
    in_window = wanted == "night_action" and state.get("revision") and skill["timing"] not in ("立刻", "预结算前")
    if phase != wanted and not in_window:
        raise IllegalCommand("wrong_phase", f"{skill['name']} is used in {wanted}")
    revisable(state, s)
    require_able(state, s, skill)
    no_advisor(state, s)
    subs = _subs(state, s)
    targets = body.get("targets", [])
    if type(targets) is not list or len(targets) != skill.get("targets", 0):
        raise IllegalCommand("bad_targets", f"{skill['name']} takes {skill.get('targets', 0)} target(s)")
    resolved = [target(state, seat, t) for t in targets]
    if not skill.get("extra"):
        used = (str(s["id"]) in state["day_skill_used"]) if day else ("skill" in subs or s["immediate"])
        if used:
            raise IllegalCommand("one_skill", "one active skill per character per night and per day")
        if not day and "assassinate" in subs:
            raise IllegalCommand("killer_no_skill", "a 杀手 who 刺杀s uses no active skill that night")
    entry = {"skill": skill["name"], "timing": skill["timing"], "targets": [i for i, _ in resolved],
             "named": [n for _, n in resolved]}
    if skill["timing"] == "立刻":
        _check_cutoff(state, at)
        s["immediate"] = True
    if day and not skill.get("extra"):
        state["day_skill_used"].append(str(s["id"]))
    kind = "skill" if not skill.get("extra") else f"extra:{skill['name']}"
    _store(state, events, seat, s, kind, entry, at)
    if skill["timing"] == "立刻":
        resolve_immediately(state, events, s, entry)


def _check_cutoff(state, at):
    deadline = state["deadline"]
    if deadline is not None and at is not None and at > deadline - IMMEDIATE_CUTOFF:
        raise IllegalCommand("too_late", "立刻 actions close ten minutes before the deadline")


def suicide(state, events, seat, body, at):
    """自杀 (a 立刻 action the server runs): death at once, a night death; not after another 立刻."""
    if state["phase"] != "night_action":
        raise IllegalCommand("wrong_phase", "自杀 is a night action")
    s = actor(state, seat, body.get("actor"))
    require_able(state, s)
    if s["immediate"]:
        raise IllegalCommand("acted", "no 自杀 after a 立刻 action the same night")
    _check_cutoff(state, at)
    state["subs"].pop(str(s["id"]), None)
    events.append(event("submitted", [seat], character=holder(s), action="suicide", detail={"at": at}))
    wounds.kill(state, events, s["id"], cause="自杀")


def cancel(state, events, seat, body):
    s = actor(state, seat, body.get("actor"))
    what = body.get("what")
    if type(what) is not str:
        raise IllegalCommand("nothing_to_cancel", "what names the action to withdraw")
    subs = state["subs"].get(str(s["id"]), {})
    if what not in subs or (what == "skill" and subs[what]["timing"] == "立刻"):
        raise IllegalCommand("nothing_to_cancel", f"no {what!r} of {holder(s)} that can be withdrawn")
    if state["phase"] not in ("night_action", "day_wound", "day_vote") and not state.get("revision"):
        raise IllegalCommand("wrong_phase", "nothing can be withdrawn now")
    revisable(state, s)
    del subs[what]
    if what == "skill" and str(s["id"]) in state["day_skill_used"]:
        state["day_skill_used"].remove(str(s["id"]))
    events.append(event("cancelled", [seat], character=holder(s), action=what))
