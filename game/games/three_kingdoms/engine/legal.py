"""The commands a human seat may send now, built from the same checks ``apply`` makes. A
multi-ID identification is listed with one ID (the rest are its subsets' supersets, as legal);
skills with several targets are listed over ordered distinct targets."""
from __future__ import annotations

from itertools import permutations

from ...engines.errors import IllegalCommand
from . import actions, knowledge, roster, votes, wounds
from .answers import speaker
from .decisions import default_answer
from .setup import DAY_TIMINGS
from .state import GM, holder, in_play

PHASE_OF_TIMING = {"白天受伤判定": "day_wound", "白天行动投票": "day_vote"}


def _targets(state):
    return [s["id"] for s in state["slots"] if actions.target_ok(state, s["id"])]


def legal_commands(state, seat):
    """A human seat's commands; for the GM, the default answer to each pending decision (its other
    commands take free text and are not listed)."""
    if seat == GM:
        return [default_answer(d) for d in state["pending"] if d["for"] == GM]
    if state["phase"] in ("setup", "over"):
        return []
    out = []
    for decision in state["pending"]:
        if decision["for"] == seat:
            out += _answers(state, decision)
    targets = _targets(state)
    phase = state["phase"]
    for s in state["slots"]:
        if s["controller"] != seat or actions.able(state, s) is not None:
            continue
        name = holder(s)
        if state.get("revision") and s["id"] in state["revision"]["locked"]:
            continue
        if actions.night_open(state):
            out += _night(state, s, name, targets)
        if actions.night_open(state) or phase in ("day_wound", "day_vote"):
            out += _skills(state, s, name, targets)
        if phase == "day_vote":
            out += _votes(state, s, name, targets)
    if phase != "over" and _may_ask_peace(state, seat):
        out.append({"peace": {}})
    return out


def _night(state, s, name, targets):
    out = []
    subs = state["subs"].get(str(s["id"]), {})
    if s["identity"] == "杀手" and "skill" not in subs:
        out += [{"assassinate": {"actor": name, "target": t}} for t in targets]
    if state["phase"] == "night_action" and not s["immediate"] and _before_cutoff(state):
        out.append({"suicide": {"actor": name}})
    if wounds.advisor_rule_applies(state, s["country"]):
        return out
    for index, spec in enumerate(state["data"]["identifications"].get(name, [])):
        if spec["kind"] == "招揽":
            if s["identity"] == "君主":
                out += [{"identify": {"actor": name, "index": index, "targets": [t], "names": [f]}}
                        for t in targets for f in state["free"]]
        else:
            out += [{"identify": {"actor": name, "index": index, "targets": [t]}} for t in targets]
    country = s["country"]
    if (s["identity"] == "军师" and s["rank"] == "主" and not state["countries"][country]["reassign_used"]):
        for killer in state["initial_killers"].get(country, []):
            out += [{"reassign": {"actor": name, "target": t, "killer": holder(state["slots"][killer - 1])}}
                    for t in targets]
    if country is None and state["night"] >= 2:
        out += [{"request": {"actor": name, "country": c}} for c in roster.COUNTRIES
                if not state["countries"][c]["destroyed"] and wounds.has_advisor(state, c)]
    return out


def _before_cutoff(state):
    try:
        actions._check_cutoff(state, state["clock"])
    except IllegalCommand:
        return False
    return True


def _skills(state, s, name, targets):
    if wounds.advisor_rule_applies(state, s["country"]):
        return []
    subs = state["subs"].get(str(s["id"]), {})
    out = []
    for skill in actions.skills_of(state, name):
        timing = skill["timing"]
        if timing == "被动" or not _in_its_phase(state, timing):
            continue
        if not skill.get("extra"):
            if timing in DAY_TIMINGS and str(s["id"]) in state["day_skill_used"]:
                continue
            if timing not in DAY_TIMINGS and ("skill" in subs or "assassinate" in subs or s["immediate"]):
                continue
        if timing == "立刻" and not _before_cutoff(state):
            continue
        for chosen in permutations(targets, skill.get("targets", 0)):
            out.append({"skill": {"actor": name, "skill": skill["name"], "targets": list(chosen)}})
    return out


def _in_its_phase(state, timing):
    wanted = PHASE_OF_TIMING.get(timing, "night_action")
    if state.get("revision"):
        return wanted == "night_action" and timing not in ("立刻", "预结算前")
    return wanted == state["phase"]


def _votes(state, s, name, targets):
    if state["mode"] == "crowd":
        return [{"vote": {"voter": name, "target": t}} for t in targets]
    out = [{"vote": {"voter": name, "scatter": True}}]
    if not votes.secret(state):
        return out + [{"vote": {"voter": name, "target": t}} for t in targets]
    calls = set(state["calls"].get(s["country"] or "", []))
    out += [{"vote": {"voter": name, "target": t, "follow": "call"}} for t in targets if t in calls]
    if s["country"] and knowledge.group_of(state, s["id"]) is not None:
        out += [{"vote": {"voter": name, "target": t, "follow": "group"}} for t in targets]
    return out


def _answers(state, decision):
    key = decision["key"]
    if decision["kind"] in ("offer", "request"):
        return [{"answer": {"decision": key, "choice": c}} for c in ("yes", "no")]
    if decision["kind"] == "regent":
        country = decision["about"]["country"]
        return [{"answer": {"decision": key, "choice": holder(s)}} for s in state["slots"]
                if s["country"] == country and in_play(s)]
    return [{"last_words": {"decision": key, "text": ""}}]


def _may_ask_peace(state, seat):
    country = next((s["country"] for s in state["slots"] if s["controller"] == seat and s["country"]), None)
    return country is not None and not state["countries"][country]["destroyed"] and speaker(state, country) == seat
