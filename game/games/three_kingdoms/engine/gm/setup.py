"""The game master's game data (rulings 5, 7, 27, 37): skills, evaluations, identifications,
successor chains, confirmed identities, natural deaths and phase durations. The ``setup`` command
replaces the parts it names and may be sent again until ``lock``, which starts night 1.
"""
from __future__ import annotations

from ....engines.errors import IllegalCommand
from . import decisions
from .. import roster
from ..views import knowledge
from ..state import DEFAULT_DURATIONS, event, holder

TIMINGS = ("立刻", "预结算前", "全局", "结算前", "结算时", "结算后", "被动", "白天受伤判定", "白天行动投票")
NIGHT_TIMINGS = TIMINGS[:6]
DAY_TIMINGS = TIMINGS[7:]
IDENTIFICATION_KINDS = ("同国", "非同国", "不反馈", "评价", "招揽")
EFFECT_TARGETS = ("trigger", "actor", "target")
PARTS = ("characters", "skills", "identifications", "successors", "natural_deaths", "durations")
# What the engine reads of a skill and of an identification: anything else would be kept unread, and
# a field of the wrong type would be accepted here and break a later night's resolution.
SKILL_FIELDS = {"name", "owner", "timing", "targets", "rank", "effects", "text", "outside", "extra"}
IDENTIFICATION_FIELDS = {"kind", "count", "names", "mutual", "passive", "before", "evaluation", "identity"}
# What a 评价 may check, one of them.
CHECKABLE = {"evaluation": roster.EVALUATIONS, "identity": roster.IDENTITIES}


def known_names(state):
    initial = [n for c in roster.COUNTRIES for n in roster.INITIAL[c]]
    return set(initial) | set(state["free"]) | set(roster.OTHERS)


def default_data(state):
    identifications = {name: [dict(i) for i in idents] for name, idents in roster.SEED_IDENTIFICATIONS.items()}
    for country in roster.COUNTRIES:
        monarch = roster.INITIAL[country][0]
        identifications.setdefault(monarch, []).append(dict(roster.RECRUIT))
    characters = {name: {"country": c, "identity": f["identity"], "rank": f["rank"], "inferred": f["inferred"],
                         "evaluations": ["统帅", "义士", "仁者"] if name == "刘备" else None}
                  for name, f in roster.initial_characters().items() for c in [f["country"]]}
    for name in roster.OTHERS:
        characters[name] = {"country": None, "identity": None, "rank": None, "inferred": True, "evaluations": None}
    for name in state["free"]:
        characters[name] = {"country": None, "identity": None, "rank": None, "inferred": False, "evaluations": None}
    return {"characters": characters, "skills": [dict(s) for s in roster.SEED_SKILLS],
            "identifications": identifications, "successors": {}, "natural_deaths": dict(roster.SEED_NATURAL_DEATHS),
            "durations": dict(DEFAULT_DURATIONS)}


def _refuse(message):
    raise IllegalCommand("bad_setup", message)


def _check_characters(state, value):
    names = known_names(state)
    for name, facts in value.items():
        if name not in names or type(facts) is not dict or set(facts) - {"country", "identity", "rank", "evaluations"}:
            _refuse(f"unknown character {name!r} or fact")
        if facts.get("rank") not in (None, "主", "副"):
            _refuse(f"{name}: rank is 主 or 副")
        if facts.get("identity") not in (None,) + roster.IDENTITIES:
            _refuse(f"{name}: identity must be one of {', '.join(roster.IDENTITIES)}")
        if facts.get("country") not in (None,) + roster.COUNTRIES:
            _refuse(f"{name}: country must be one of {', '.join(roster.COUNTRIES)}")
        evaluations = facts.get("evaluations")
        if evaluations is not None and not (type(evaluations) is list and all(e in roster.EVALUATIONS
                                                                               for e in evaluations)):
            _refuse(f"{name}: evaluations must be a list of {', '.join(roster.EVALUATIONS)}")


def _check_skills(state, value):
    names = known_names(state)
    seen = set()
    for skill in value:
        if type(skill) is not dict or type(skill.get("name")) is not str or skill.get("owner") not in names:
            _refuse("each skill needs a name and an owner among the game's characters")
        if set(skill) - SKILL_FIELDS:
            _refuse(f"{skill['name']}: a skill has only {', '.join(sorted(SKILL_FIELDS))}")
        if skill.get("timing") not in TIMINGS:
            _refuse(f"{skill['name']}: timing must be one of {', '.join(TIMINGS)}")
        if type(skill.get("text", "")) is not str:
            _refuse(f"{skill['name']}: its text is words")
        if any(type(skill.get(flag, False)) is not bool for flag in ("outside", "extra")):
            _refuse(f"{skill['name']}: outside (usable while 在野) and extra (an additional action) are true or false")
        if type(skill.get("targets", 0)) is not int or not 0 <= skill.get("targets", 0) <= 5:
            _refuse(f"{skill['name']}: targets must be 0 to 5")
        if type(skill.get("rank", 8)) is not int or not 1 <= skill.get("rank", 8) <= 11:
            _refuse(f"{skill['name']}: rank (结算前 order) must be 1 to 11")
        if "effects" in skill:
            # Checked now, so the automatic GM's default answer is always applicable.
            decisions.check_effects(state, skill["effects"], {p: 1 for p in decisions.PLACEHOLDERS})
        name = roster.SKILL_ALIASES.get(skill["name"], skill["name"])
        if (skill["owner"], name) in seen:
            _refuse(f"{skill['name']}: given twice to {skill['owner']}")
        seen.add((skill["owner"], name))


def _check_identifications(state, value):
    names = known_names(state)
    # The seed's own data names 在野 this game may not have drawn (甄姬's 袁方): such a name never hits.
    listable = names | set(roster.FREE_POOL)
    for name, idents in value.items():
        if name not in names or type(idents) is not list:
            _refuse(f"identifications: unknown character {name!r}")
        for ident in idents:
            if type(ident) is not dict or ident.get("kind") not in IDENTIFICATION_KINDS:
                _refuse(f"{name}: identification kind must be one of {', '.join(IDENTIFICATION_KINDS)}")
            if set(ident) - IDENTIFICATION_FIELDS:
                _refuse(f"{name}: an identification has only {', '.join(sorted(IDENTIFICATION_FIELDS))}")
            if type(ident.get("count")) is not int or not 1 <= ident["count"] <= 5:
                _refuse(f"{name}: an identification names 1 to 5 IDs")
            for part in ("names", "mutual"):
                listed = ident.get(part, [])
                if type(listed) is not list or not all(type(n) is str for n in listed) or not set(listed) <= listable:
                    _refuse(f"{name}: identification {part} must list the game's characters")
            checks = [(part, ident[part]) for part in CHECKABLE if part in ident]
            one_known = len(checks) == 1 and checks[0][1] in CHECKABLE[checks[0][0]]
            if (not one_known) if ident["kind"] == "评价" else checks:
                _refuse(f"{name}: a 评价 checks one evaluation ({', '.join(roster.EVALUATIONS)}) or identity "
                        f"({', '.join(roster.IDENTITIES)}), and only a 评价 does")
            if "passive" in ident and (type(ident["passive"]) is not str or not ident["passive"].strip()):
                _refuse(f"{name}: passive names the skill the identification triggers")
            if type(ident.get("before", False)) is not bool or (ident.get("before") and not ident.get("passive")):
                _refuse(f"{name}: before (结算前, ruling 58) marks an identification that triggers a passive")


def _check_successors(state, value):
    in_game = {holder(s) for s in state["slots"]}
    used = set()
    for name, chain in value.items():
        if name not in in_game or type(chain) is not list:
            _refuse(f"successors: {name!r} is not a character of this game")
        for successor in chain:
            if type(successor) is not str or successor not in known_names(state) or successor in in_game or successor in used:
                _refuse(f"successors: {successor!r} is not free to succeed (unknown, already in play or used)")
            used.add(successor)


def _check_natural(state, value):
    for name, night in value.items():
        if name not in known_names(state) or type(night) is not int or night < 1:
            _refuse(f"natural_deaths: {name!r} needs a night number >= 1")


CHECKS = {"characters": _check_characters, "skills": _check_skills, "identifications": _check_identifications,
          "successors": _check_successors, "natural_deaths": _check_natural, "durations": decisions.check_durations}


def apply_setup(state, events, body):
    if state["locked"]:
        raise IllegalCommand("locked", "the game data is locked; only overrides change it now")
    unknown = set(body) - set(PARTS)
    if unknown or not body:
        _refuse(f"setup takes some of {', '.join(PARTS)}")
    for part, value in body.items():
        if type(value) is not (list if part == "skills" else dict):
            _refuse(f"{part} has the wrong shape")
        CHECKS[part](state, value)
    for part, value in body.items():
        if part == "characters":
            for name, facts in value.items():
                state["data"]["characters"][name].update(facts, inferred=False)
        elif part == "durations":
            state["data"]["durations"].update(value)
        elif part == "skills":
            state["data"]["skills"] = [dict(k, name=roster.SKILL_ALIASES.get(k["name"], k["name"])) for k in value]
        else:
            state["data"][part] = value
    events.append(event("setup", "gm", parts=sorted(body)))


def lock(state, events):
    """Fix the data: confirmed identities onto the roster, chains onto the IDs, and the two 杀手
    of each country mutually recognised (ruling 8)."""
    data = state["data"]
    state["locked"] = True
    killers = {}
    for s in state["slots"]:
        name = holder(s)
        facts = data["characters"][name]
        if s["country"]:
            s["identity"] = facts["identity"] or s["identity"]
            s["rank"] = facts["rank"] if facts["identity"] in ("军师", "杀手") else None
            if s["identity"] == "杀手":
                killers.setdefault(s["country"], []).append(s["id"])
        s["chain"] = [name] + list(data["successors"].get(name, []))
    state["initial_killers"] = {}
    for country, ids in killers.items():
        ranked = sorted(ids, key=lambda i: state["slots"][i - 1]["rank"] != "主")
        state["initial_killers"][country] = ranked
        if len(ids) == 2:
            knowledge.recognise(state, events, ids[0], ids[1], mutual=True)
    events.append(event("locked", "gm"))
