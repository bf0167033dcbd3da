"""The game master's game data: the starter file, and its forms on the recruiting page — a
character's (its facts, successors and skills, a skill's effects as rows), the identifications'
and the natural deaths'. Each form is the engine's ``setup`` of the parts it shows, the rest of the
data kept; the engine judges every value.

The starter is the engine's defaults for the game (the seed's skills and identifications, each
country's roster, this game's 在野 draw) as the ``setup`` command takes them, with ``notes``: what
the rules text says of each character (``data/characters.json``, the shared roster's source), for
the game master to read while filling in what it leaves open. ``notes`` is dropped on import.
"""
import json
from functools import cache
from pathlib import Path

from django.utils.translation import gettext as _

from game.errors import ServiceError

from . import texts
from .services import PHASES


CHARACTERS = Path(__file__).resolve().parent / "data" / "characters.json"
PARTS = ("characters", "skills", "identifications", "successors", "natural_deaths", "durations")


@cache
def _mentions():
    entries = json.loads(CHARACTERS.read_text(encoding="utf-8"))
    return {e["name"]: e.get("seed_mentions", []) for e in entries}


def starter(state):
    data = {part: state["data"][part] for part in PARTS}
    # ``inferred`` marks what the engine guessed from the roster order; the setup takes the facts alone.
    data["characters"] = {name: {k: v for k, v in facts.items() if k != "inferred"}
                          for name, facts in data["characters"].items()}
    mentions = _mentions()
    data["notes"] = {name: mentions.get(name, []) for name in data["characters"] if mentions.get(name)}
    return data



# A skill's timing classes, as the engine's game data names them (its ``setup`` judges them).
TIMINGS = ("立刻", "预结算前", "全局", "结算前", "结算时", "结算后", "被动", "白天受伤判定", "白天行动投票")


# The engine's identification kinds (its ``setup`` judges them) and what a 评价 may check: an
# evaluation, else an identity.
IDENTIFICATION_KINDS = ("同国", "非同国", "不反馈", "评价", "招揽")
EVALUATIONS = ("智者", "猛将", "统帅", "义士", "仁者", "能吏", "雅士", "文豪", "异人")
IDENTITIES = ("君主", "军师", "杀手", "护卫", "女眷", "平民")
# A skill's effects name IDs by number or by these placeholders, filled in when the skill is used
# (``picked``: inside a pick, each ID it picked).
PLACEHOLDERS = ("actor", "target", "trigger", "picked")
# The effects a skill's data may hold (docs/three-kingdoms-engine.md, "Effects"): those naming one
# ID, the others, then the server's judgements. The console's effect rows (``console.ROW_EFFECTS``)
# are these but the judgements; they are not imported from there, since the console imports this
# module.
ID_EFFECTS = ("wound", "kill", "leave", "heal", "outside", "back", "fail", "revive")
EFFECT_KINDS = (*ID_EFFECTS, "recognise", "feedback", "announce", "identity", "luck", "chance", "pick")
# Blank rows a form shows after the existing ones (without a script, the only way to add).
BLANK_ROWS = 2
# The most rows a post may claim: a form never shows more, and a forged count reads no further.
MAX_ROWS = 200


def character_forms(state):
    """Each character's facts, successors and skills as its form on the recruiting page shows them
    (a skill's effects as rows, ``effect_form_rows``)."""
    data = state["data"]
    return [{"name": name, "country": facts.get("country") or "", "identity": facts.get("identity") or "",
             "rank": facts.get("rank") or "",
             "evaluations": "、".join(facts.get("evaluations") or []),
             "successors": "、".join(data["successors"].get(name, [])),
             "skills": [dict(k, rows=effect_form_rows(k.get("effects", []))) for k in data["skills"]
                        if k["owner"] == name],
             "new_rows": effect_form_rows([], blank=1)}
            for name, facts in data["characters"].items()]


# The judgements' outcome lists, whose effects the form shows as rows inside them.
BRANCHES = {"chance": ("then", "else"), "pick": ("then",)}


def _flatten(effects, parent="", rows=None):
    """The effects in reading order, each as ``(parent, effect)``: a judgement's outcomes follow it,
    their parent ``"<its row>:then"`` or ``":else"`` (rows counted from 1)."""
    rows = [] if rows is None else rows
    for effect in effects:
        rows.append((parent, effect))
        row = len(rows)
        for kind, branches in BRANCHES.items():
            for branch in branches if kind in effect else ():
                _flatten(effect[kind].get(branch, []), f"{row}:{branch}", rows)
    return rows


def effect_form_rows(effects, blank=BLANK_ROWS):
    """A skill's effects as its form's rows (see ``skill_effects``), then ``blank`` blank ones (a
    new skill's one: each character's form has one, and a saved skill shows ``BLANK_ROWS`` more)."""
    rows = []
    for n, (parent, effect) in enumerate(_flatten(effects) + [("", {})] * blank):
        kind = next((k for k in effect if k not in ("mutual", "text")), "")
        value = effect.get(kind)
        row = {"n": n, "parent": parent, "kind": kind, "id": "", "other": "", "text": "", "mutual": False,
               "number": "", "good": False, "parents": _parents(n)}
        if kind == "recognise":
            row.update(id=value[0], other=value[1], mutual=bool(effect.get("mutual")))
        elif kind in ("identity", "luck"):
            # The engine takes a luck of ``[ID]`` as ``[ID, None]``.
            ident, given = (value + [None])[:2]
            row.update(id=ident, text=given or "")
        elif kind == "announce":
            row.update(text=value)
        elif kind == "chance":
            row.update(id=value.get("for", ""), other=value.get("against") or "", text=value.get("label", ""),
                       number="/".join(map(str, value.get("odds", []))))
        elif kind == "pick":
            row.update(other="、".join(map(str, value.get("among", []))), text=value.get("label", ""),
                       number=value.get("count", 1), good=bool(value.get("good")))
        elif kind == "feedback":
            row.update(id=value, text=effect.get("text", ""))
        elif kind:
            row.update(id=value)
        rows.append(row)
    return rows


def _parents(n):
    """Where row ``n`` may go: among the skill's effects, or into an earlier row's outcome (the
    post is refused if that row is not a judgement with such an outcome)."""
    choices = [("", _("the skill's effects"))]
    for row in range(1, n + 1):
        choices += [(f"{row}:then", _("effect %(row)s: then") % {"row": row}),
                    (f"{row}:else", _("effect %(row)s: else") % {"row": row})]
    return choices


def _skill(post, key, kept):
    """The skill of the form's fields ``skill_<field>_<key>``, over the one it edits (``kept``: a
    part the post leaves out stays as it is; its flags and effects are read when the post carries
    the form's count of effect rows, ``skill_rows_<key>``)."""
    def field(part, default):
        return post.get(f"skill_{part}_{key}", default)

    name = field("name", kept.get("name", "")).strip()
    if not name:
        raise ServiceError("bad_setup", _("A skill needs a name (remove it instead)."))
    words = {"skill": name}
    try:
        targets = int(field("targets", kept.get("targets", 0)) or 0)
    except ValueError:
        raise ServiceError("bad_setup", _("%(skill)s: give its targets as a number from 0 to 5.") % words) from None
    skill = dict(kept, name=name, timing=field("timing", kept.get("timing", "")), targets=targets,
                 text=field("text", kept.get("text", "")).strip())
    rank = str(field("rank", kept.get("rank", ""))).strip()
    skill.pop("rank", None)
    if rank:
        skill["rank"] = _number(rank, _("%(skill)s: give its rank (结算前 order) as a number from 1 to 11.") % words)
    if f"skill_rows_{key}" in post:
        for flag in ("outside", "extra"):
            skill.pop(flag, None)
            if field(flag, ""):
                skill[flag] = True
        skill.pop("effects", None)
        effects = skill_effects(post, key, name)
        if effects:
            skill["effects"] = effects
    return skill


def _number(text, message):
    try:
        return int(text)
    except (TypeError, ValueError):
        raise ServiceError("bad_setup", message) from None


def _rows(post, field):
    """How many rows the form says it has (at most ``MAX_ROWS``). A post without that count is no
    post of the form: read as none, its rows would clear the part."""
    message = _("The form is out of date: reload the page.")
    count = _number(post.get(field), message)
    if count < 0:
        raise ServiceError("bad_setup", message)
    return min(count, MAX_ROWS)


def _who(text, message):
    """An ID in a skill's effect: its number, or a placeholder (``PLACEHOLDERS``)."""
    text = str(text).strip()
    return text if text in PLACEHOLDERS else _number(text, message)


def _effect(kind, row, words):
    """One row's effect (``row``: its fields by name), in the engine's shape."""
    if kind not in EFFECT_KINDS:
        raise ServiceError("bad_setup", _("%(skill)s, effect %(row)s: choose its kind.") % words)
    text = row("text").strip()
    if kind == "announce":
        return {"announce": text}
    bad_id = _("%(skill)s, effect %(row)s: an ID is a number or actor, target, trigger, picked.") % words
    if kind == "pick":
        among = [_who(i, bad_id) for i in names(row("other"))]
        count = _number(row("number") or "1", _("%(skill)s, effect %(row)s: give how many it picks.") % words)
        return {"pick": dict({"among": among, "count": count, "good": bool(row("good"))},
                             **({"label": text} if text else {}), then=[])}
    ident = _who(row("id"), bad_id)
    if kind in ID_EFFECTS:
        return {kind: ident}
    if kind == "recognise":
        return {"recognise": [ident, _who(row("other"), bad_id)], "mutual": bool(row("mutual"))}
    if kind == "feedback":
        return {"feedback": ident, "text": text}
    if kind == "chance":
        odds = row("number").replace("／", "/").split("/")
        message = _("%(skill)s, effect %(row)s: give its odds as k/n, such as 1/2.") % words
        if len(odds) != 2:
            raise ServiceError("bad_setup", message)
        body = {"for": ident, "odds": [_number(o, message) for o in odds]}
        if row("other").strip():
            body["against"] = _who(row("other"), bad_id)
        if text:
            body["label"] = text
        return {"chance": dict(body, then=[], **{"else": []})}
    return {kind: [ident, text or None]}


def skill_effects(post, key, name):
    """A skill's effects from its form's rows ``skill_effect_<field>_<key>_<n>`` (fields: ``kind``,
    ``parent``, ``id``, ``other``, ``text``, ``mutual``, ``number``, ``good``); a row with no kind
    is none. A row whose parent is ``"<row>:then"`` or ``":else"`` goes into that earlier
    judgement's outcome (a pick's ``then``: for each one picked). The engine judges the IDs, the
    odds and the nesting."""
    effects, outcomes = [], {}
    for n in range(_rows(post, f"skill_rows_{key}")):
        def row(field, n=n):
            return post.get(f"skill_effect_{field}_{key}_{n}", "")
        kind = row("kind")
        if not kind:
            continue
        words = {"skill": name, "row": n + 1}
        effect = _effect(kind, row, words)
        parent = row("parent")
        if parent and parent not in outcomes:
            raise ServiceError("bad_setup", _("%(skill)s, effect %(row)s: it goes into an earlier judgement's "
                                              "outcome (then, or else of a chance).") % words)
        outcomes.get(parent, effects).append(effect)
        for branch in BRANCHES.get(kind, ()):
            outcomes[f"{n + 1}:{branch}"] = effect[kind][branch]
    return effects


def names(text):
    """Names (or words) separated by 、 or commas, as a form's field gives them."""
    return [n.strip() for n in text.replace("，", "、").replace(",", "、").split("、") if n.strip()]


def character_command(state, post):
    """A character's form as the engine's ``setup``: its country (when the post has the field),
    identity, rank and evaluations, its
    successors in the game's successors and its skills in the game's skills (the others kept; a
    skill's effects as they were). The engine judges every value; an empty
    field is "none" (evaluations, successors) or "not confirmed" (identity, rank)."""
    name = post.get("name", "")
    if name not in state["data"]["characters"]:
        raise ServiceError("bad_setup", _("Choose a character of this game."))
    evaluations = names(post.get("evaluations", ""))
    facts = {"identity": post.get("identity", "").strip() or None, "rank": post.get("rank") or None,
             "evaluations": evaluations or None}
    if "country" in post:
        facts["country"] = post["country"] or None
    successors = {k: v for k, v in state["data"]["successors"].items() if k != name}
    if names(post.get("successors", "")):
        successors[name] = names(post.get("successors", ""))
    skills, own = [], 0
    for skill in state["data"]["skills"]:
        if skill["owner"] != name:
            skills.append(skill)
            continue
        if not post.get(f"skill_remove_{own}"):
            skills.append(_skill(post, own, skill))
        own += 1
    if post.get("skill_name_new", "").strip():
        skills.append(_skill(post, "new", {"owner": name}))
    return {"setup": {"characters": {name: facts}, "successors": successors, "skills": skills}}


def identification_rows(state):
    """The game's identifications as the identifications form's rows, each character's in its
    order (an identification is submitted by its index among its character's), then blank rows."""
    rows = [{"owner": owner, "kind": spec.get("kind", ""), "count": spec.get("count", 1),
             "names": "、".join(spec.get("names", [])), "mutual": "、".join(spec.get("mutual", [])),
             "checks": spec.get("evaluation") or spec.get("identity") or "", "passive": spec.get("passive", ""),
             "before": bool(spec.get("before"))}
            for owner, specs in state["data"]["identifications"].items() for spec in specs]
    return [dict(row, n=n) for n, row in enumerate(rows + [{"owner": "", "kind": "", "count": 1, "names": "",
                                                           "mutual": "", "checks": "", "passive": "",
                                                           "before": False}] * BLANK_ROWS)]


def identifications_command(state, post):
    """The identifications form as the engine's ``setup`` of the game's identifications, all of
    them (fields ``ident_<field>_<n>``: ``owner``, ``kind``, ``count``, ``names``, ``mutual``,
    ``checks``, ``passive``, ``before``, ``remove``); a row with no character is none. A
    character's identifications keep the order of its rows."""
    identifications = {}
    for n in range(_rows(post, "rows")):
        def field(name, n=n):
            return post.get(f"ident_{name}_{n}", "").strip()
        owner = field("owner")
        if not owner or field("remove"):
            continue
        words = {"row": n + 1}
        if owner not in state["data"]["characters"]:
            raise ServiceError("bad_setup", _("Identification %(row)s: choose a character of this game.") % words)
        kind = field("kind")
        if kind not in IDENTIFICATION_KINDS:
            raise ServiceError("bad_setup", _("Identification %(row)s: choose its kind.") % words)
        spec = {"kind": kind, "count": _number(field("count"), _("Identification %(row)s: give how many IDs it "
                                                                 "names, from 1 to 5.") % words)}
        checks = field("checks")
        if (kind == "评价") != bool(checks) or checks and checks not in (*EVALUATIONS, *IDENTITIES):
            raise ServiceError("bad_setup", _("Identification %(row)s: a 评价 checks one evaluation or identity, "
                                              "and only a 评价 does.") % words)
        if checks:
            spec["evaluation" if checks in EVALUATIONS else "identity"] = checks
        for part in ("names", "mutual"):
            if names(field(part)):
                spec[part] = names(field(part))
        if field("passive"):
            spec["passive"] = field("passive")
        if field("before"):
            spec["before"] = True
        identifications.setdefault(owner, []).append(spec)
    return {"setup": {"identifications": identifications}}


def natural_death_rows(state):
    deaths = list(state["data"]["natural_deaths"].items()) + [("", "")] * BLANK_ROWS
    return [{"n": n, "name": name, "night": night} for n, (name, night) in enumerate(deaths)]


def natural_deaths_command(state, post):
    """The natural deaths form (``death_name_<n>``, ``death_night_<n>``) as the engine's ``setup``
    of them all; a row with no character or no night is none."""
    deaths = {}
    for n in range(_rows(post, "rows")):
        name, night = post.get(f"death_name_{n}", "").strip(), post.get(f"death_night_{n}", "").strip()
        if not name or not night:
            continue
        words = {"row": n + 1, "name": name}
        if name not in state["data"]["characters"]:
            raise ServiceError("bad_setup", _("Natural death %(row)s: choose a character of this game.") % words)
        if name in deaths:
            raise ServiceError("bad_setup", _("%(name)s dies a natural death once: give one night.") % words)
        deaths[name] = _number(night, _("Natural death %(row)s: give the night as a number from 1.") % words)
    return {"setup": {"natural_deaths": deaths}}


def duration_rows(state):
    """Each phase's length in minutes, as the durations form shows it."""
    return [(name, texts.phase(name), f"{state['data']['durations'][name] / 60:g}") for name in PHASES]


def durations_command(lengths):
    """The phase lengths form as the engine's ``setup`` of the lengths it gives (``lengths``: its
    fields as the console reads them, ``console.durations``; an empty field: unchanged)."""
    if not lengths:
        raise ServiceError("bad_durations", _("Give at least one phase's length."))
    return {"setup": {"durations": lengths}}
