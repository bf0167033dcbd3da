"""The game master's game data: the starter file, and a character's form on the recruiting page.

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


def character_forms(state):
    """Each character's facts, successors and skills as its form on the recruiting page shows them."""
    data = state["data"]
    return [{"name": name, "identity": facts.get("identity") or "", "rank": facts.get("rank") or "",
             "evaluations": "、".join(facts.get("evaluations") or []),
             "successors": "、".join(data["successors"].get(name, [])),
             "skills": [k for k in data["skills"] if k["owner"] == name]}
            for name, facts in data["characters"].items()]


def _skill(post, key, kept):
    """The skill of the form's fields ``skill_<field>_<key>``, over the one it edits (``kept``: its
    effects and other parts stay as they are, and so does a field the post leaves out)."""
    def field(part, default):
        return post.get(f"skill_{part}_{key}", default)

    name = field("name", kept.get("name", "")).strip()
    if not name:
        raise ServiceError("bad_setup", _("A skill needs a name (remove it instead)."))
    try:
        targets = int(field("targets", kept.get("targets", 0)) or 0)
    except ValueError:
        raise ServiceError("bad_setup", _("%(skill)s: give its targets as a number from 0 to 5.")
                           % {"skill": name}) from None
    return dict(kept, name=name, timing=field("timing", kept.get("timing", "")), targets=targets,
                text=field("text", kept.get("text", "")).strip())


def names(text):
    """Names (or words) separated by 、 or commas, as a form's field gives them."""
    return [n.strip() for n in text.replace("，", "、").replace(",", "、").split("、") if n.strip()]


def character_command(state, post):
    """A character's form as the engine's ``setup``: its identity, rank and evaluations, its
    successors in the game's successors and its skills in the game's skills (the others kept; a
    skill's effects as they were). The engine judges every value; an empty
    field is "none" (evaluations, successors) or "not confirmed" (identity, rank)."""
    name = post.get("name", "")
    if name not in state["data"]["characters"]:
        raise ServiceError("bad_setup", _("Choose a character of this game."))
    evaluations = names(post.get("evaluations", ""))
    facts = {"identity": post.get("identity", "").strip() or None, "rank": post.get("rank") or None,
             "evaluations": evaluations or None}
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
