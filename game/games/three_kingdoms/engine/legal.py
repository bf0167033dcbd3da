"""The commands a human seat may send now, built from the same checks ``apply`` makes. Skills
with several targets are listed over ordered distinct targets; an identification of up to k IDs
over every set of 1 to k distinct targets (ascending: the order does not change its result) —
unless that is more than ``LISTED_MAX`` commands, when one *family* stands for them all:
``{"identify": {"actor", "index", "choose": {"from": [IDs], "min": 1, "max": k}, "names_from"?: [在野]}}``,
made concrete by ``concrete`` (any choice of targets, and of one name for 招揽, is legal).
``is_legal`` answers exactly for any command, listed or not.
"""
from __future__ import annotations

from itertools import combinations, permutations
from math import comb

from ...engines.errors import IllegalCommand, accepts
from . import roster
from .day import votes, wounds
from .night import actions
from .views import knowledge
from .gm.answers import speaker
from .gm.decisions import default_answer
from .rules import apply
from .gm.setup import DAY_TIMINGS
from .state import GM, holder, in_play

PHASE_OF_TIMING = {"白天受伤判定": "day_wound", "白天行动投票": "day_vote"}
# More identification commands than this for one identification are listed as one family.
LISTED_MAX = 2000


def is_legal(state, seat, command):
    """Whether ``apply`` accepts the command now (the state is not changed)."""
    return accepts(apply, state, seat, command)


def concrete(command, rng):
    """A command of a listed family (``choose``), drawn with ``rng`` (a ``random.Random``); any
    other command as it is."""
    body = command.get("identify")
    if not body or "choose" not in body:
        return command
    choose = body["choose"]
    targets = sorted(rng.sample(choose["from"], rng.randint(choose["min"], choose["max"])))
    chosen = {"actor": body["actor"], "index": body["index"], "targets": targets}
    if "names_from" in body:
        chosen["names"] = [rng.choice(body["names_from"])]
    return {"identify": chosen}


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
        if spec["kind"] != "招揽" or s["identity"] == "君主":
            out += _identifications(state, name, index, spec, targets)
    country = s["country"]
    if (s["identity"] == "军师" and s["rank"] == "主" and not state["countries"][country]["reassign_used"]):
        for killer in state["initial_killers"].get(country, []):
            out += [{"reassign": {"actor": name, "target": t, "killer": holder(state["slots"][killer - 1])}}
                    for t in targets]
    if country is None and state["night"] >= 2:
        out += [{"request": {"actor": name, "country": c}} for c in roster.COUNTRIES
                if not state["countries"][c]["destroyed"] and wounds.has_advisor(state, c)]
    return out


def _identifications(state, name, index, spec, targets):
    recruit = spec["kind"] == "招揽"
    most = min(spec["count"], len(targets))
    names = [[f] for f in state["free"]] if recruit else [None]
    if sum(comb(len(targets), r) for r in range(1, most + 1)) * len(names) > LISTED_MAX:
        family = {"actor": name, "index": index, "choose": {"from": list(targets), "min": 1, "max": most}}
        return [{"identify": dict(family, names_from=list(state["free"])) if recruit else family}]
    out = []
    for r in range(1, most + 1):
        for chosen in combinations(targets, r):
            base = {"actor": name, "index": index, "targets": list(chosen)}
            out += [{"identify": dict(base, names=n) if n else base} for n in names]
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
