"""The game master's pending decisions (every ⏸ of the rulings), the seats' asked choices, the
effects a decision or an override applies, and the log of them all (rulings 59–61).

A decision: ``{"key", "kind", "for": "gm" | seat, "about", "options", "default"}``. The GM answers
with ``resolve``, a seat with ``answer``; an answered decision leaves the queue and the flow goes
on. Pending GM decisions hold the phase's close.
"""
from __future__ import annotations

from ....engines.errors import IllegalCommand
from .. import roster
from ..day import wounds
from ..night import luck
from ..views import knowledge
from ..state import GM, IN_PLAY, PHASES, event, holder, slot

ID_EFFECTS = ("wound", "kill", "leave", "heal", "outside", "back", "fail", "revive")
PLACEHOLDERS = ("trigger", "actor", "target")
# Ruling 30: 优判 always wins a 拼点 and heals at 伤判, 劣判 the reverse; None clears it.
LUCK = ("优", "劣", None)
# Server judgements inside effects ("chance", "pick") nest their outcomes' effects this deep at most.
MAX_NESTING = 3


def add(state, events, kind, to, about, options, default, internal=None):
    """Queue a decision; ``internal`` is what the engine needs to apply the answer but the seat
    asked may not know (the ID of its dead character), never shown to it."""
    key = state["next_key"]
    state["next_key"] += 1
    decision = {"key": key, "kind": kind, "for": to, "about": about, "options": options, "default": default,
                "phase": state["phase"], "night": state["night"]}
    events.append(event("decision", [to] if to != GM else GM, **decision))
    state["pending"].append(dict(decision, internal=internal or {}))
    return key


def public_form(decision):
    return {k: v for k, v in decision.items() if k != "internal"}


def default_answer(decision):
    """The GM's answer that takes a decision's default (the automatic GM's, and the one listed
    first among the GM's legal commands)."""
    kind = decision["kind"]
    if kind == "skill":
        return {"resolve": {"decision": decision["key"], "effects": decision["default"]}}
    if kind == "defence":
        return {"resolve": {"decision": decision["key"], "defended": []}}
    return {"resolve": {"decision": decision["key"], "choice": decision["default"]}}


def take(state, key, seat):
    for decision in state["pending"]:
        if decision["key"] == key:
            if decision["for"] != seat:
                raise IllegalCommand("not_yours", f"decision {key} is not yours to answer")
            state["pending"].remove(decision)
            return decision
    raise IllegalCommand("no_such_decision", f"no pending decision {key!r}")


def gm_blocking(state):
    return any(d["for"] == GM for d in state["pending"])


def log(state, kind, reason=None, **detail):
    state["log"].append({"time": state["clock"], "phase": state["phase"], "night": state["night"], "kind": kind,
                         "reason": reason, **detail})


def _id(state, value, context):
    if type(value) is str and context and value in context:
        value = context[value]
    if type(value) is not int or not 1 <= value <= len(state["slots"]):
        raise IllegalCommand("bad_effect", f"{value!r} is not an ID")
    return value


def check_effects(state, effects, context=None, depth=0):
    """The effects, placeholders replaced, each checked for shape; raises before anything changes."""
    if type(effects) is not list or depth > MAX_NESTING:
        raise IllegalCommand("bad_effect", f"effects must be a list, nested {MAX_NESTING} deep at most")
    out = []
    for effect in effects:
        if type(effect) is not dict or len(set(effect) - {"mutual", "text"}) != 1:
            raise IllegalCommand("bad_effect", f"unreadable effect {str(effect)[:80]}")
        (kind,) = set(effect) - {"mutual", "text"}
        if kind in ID_EFFECTS:
            out.append({kind: _id(state, effect[kind], context)})
        elif kind == "recognise":
            pair = effect[kind]
            if type(pair) is not list or len(pair) != 2:
                raise IllegalCommand("bad_effect", "recognise takes [knower ID, known ID]")
            out.append({kind: [_id(state, p, context) for p in pair], "mutual": bool(effect.get("mutual"))})
        elif kind == "feedback":
            if type(effect.get("text")) is not str:
                raise IllegalCommand("bad_effect", "feedback needs a text")
            out.append({kind: _id(state, effect[kind], context), "text": effect["text"][:2000]})
        elif kind == "announce":
            if type(effect[kind]) is not str:
                raise IllegalCommand("bad_effect", "announce takes a text")
            out.append({kind: effect[kind][:2000]})
        elif kind in ("identity", "luck"):
            ident, value = (effect[kind] + [None, None])[:2] if type(effect[kind]) is list else (None, None)
            allowed = roster.IDENTITIES if kind == "identity" else LUCK
            if value not in allowed:
                raise IllegalCommand("bad_effect", f"{kind} takes [ID, one of {', '.join(map(str, allowed))}]")
            out.append({kind: [_id(state, ident, context), value]})
        elif kind in JUDGEMENTS:
            out.append({kind: JUDGEMENTS[kind](state, effect[kind], context or {}, depth)})
        else:
            raise IllegalCommand("bad_effect", f"unknown effect {kind!r}")
    return out


def _label(body):
    label = body.get("label", "判定")
    if type(label) is not str or not 0 < len(label) <= 40:
        raise IllegalCommand("bad_effect", "a judgement's label is a short text")
    return label


def _check_chance(state, body, context, depth):
    """Ruling 30/55: ``{"for": ID, "against"?: ID, "odds": [k, n], "label"?, "then": [...], "else": [...]}``,
    drawn by the server when applied, favourable to ``for`` with probability k/n."""
    odds = body.get("odds") if type(body) is dict else None
    if (type(odds) is not list or len(odds) != 2 or not all(type(o) is int for o in odds)
            or not 0 <= odds[0] <= odds[1] or not 1 <= odds[1] <= 1000):
        raise IllegalCommand("bad_effect", "chance takes odds [k, n] with 0 <= k <= n, n from 1 to 1000")
    against = body.get("against")
    return {"for": _id(state, body.get("for"), context), "odds": odds, "label": _label(body),
            "against": None if against is None else _id(state, against, context),
            "then": check_effects(state, body.get("then", []), context, depth + 1),
            "else": check_effects(state, body.get("else", []), context, depth + 1)}


def _check_pick(state, body, context, depth):
    """Ruling 30: ``{"among": [IDs], "count": n, "good": bool, "label"?, "then": [...]}``, the server
    picking n of them; ``then`` applies to each one picked, named by the placeholder ``"picked"``."""
    among = body.get("among") if type(body) is dict else None
    if type(among) is not list or not among:
        raise IllegalCommand("bad_effect", "pick takes among: a list of IDs")
    # Placeholders may name one ID twice (a skill aimed at its own user): it is one candidate.
    among = list(dict.fromkeys(_id(state, i, context) for i in among))
    count, good = body.get("count", 1), body.get("good")
    if type(count) is not int or not 1 <= count <= len(among) or type(good) is not bool:
        raise IllegalCommand("bad_effect", "pick takes IDs, a count up to their number and good: true or false")
    return {"among": among, "count": count, "good": good, "label": _label(body),
            "then": {str(i): check_effects(state, body.get("then", []), dict(context, picked=i), depth + 1)
                     for i in among}}


JUDGEMENTS = {"chance": _check_chance, "pick": _check_pick}


def apply_effects(state, events, effects, queue=None, source=None, cause=None):
    """Apply checked effects. During night resolution's 结算时 stage, damage goes to ``queue`` for
    stage 3 (ruling 28) instead of applying at once. ``cause`` names the skill that dealt it."""
    for effect in effects:
        kind = next(k for k in effect if k not in ("mutual", "text"))
        value = effect[kind]
        if kind in ("wound", "kill", "leave") and queue is not None:
            queue.append({"target": value, "level": "wound" if kind == "wound" else "death", "source": source,
                          "cause": cause or kind})
        elif kind in ("wound", "kill", "leave"):
            wounds.damage(state, events, value, "wound" if kind == "wound" else "death", source, cause=cause or kind)
        elif kind == "heal":
            wounds.heal(state, events, value)
        elif kind == "outside" and slot(state, value)["status"] in IN_PLAY:
            slot(state, value)["status"] = "outside"
        elif kind == "back" and slot(state, value)["status"] == "outside":
            slot(state, value)["status"] = "wounded" if slot(state, value)["wound"] else "normal"
        elif kind == "revive":
            wounds.revive(state, events, value)
        elif kind == "fail":
            failed = state["subs"].pop(str(value), {})
            s = slot(state, value)
            if failed and s["controller"] is not None:
                # Ruling 29: a defeated action is told to its owner at once.
                events.append(event("void", [s["controller"]], character=holder(s), action=sorted(failed),
                                    reason="failed"))
        elif kind == "recognise":
            knowledge.recognise(state, events, value[0], value[1], mutual=effect["mutual"])
        elif kind == "feedback":
            tell(state, events, value, effect["text"])
        elif kind == "announce":
            state["night_report"]["texts"].append(value)
        elif kind == "identity":
            slot(state, value[0])["identity"] = value[1]
        elif kind == "luck":
            slot(state, value[0])["luck"] = value[1]
        elif kind == "chance":
            won = luck.chance(state, events, value["for"], value["odds"], value["label"], value["against"])
            apply_effects(state, events, value["then" if won else "else"], queue, source, cause)
        elif kind == "pick":
            for ident in luck.pick(state, events, value["among"], value["count"], value["good"], value["label"]):
                apply_effects(state, events, value["then"][str(ident)], queue, source, cause)


def tell(state, events, ident, text):
    """Private feedback to the human who controls ID ``ident`` (none for a bot)."""
    seat = slot(state, ident)["controller"]
    if seat is not None:
        state["feedback"].setdefault(str(seat), []).append({"night": state["night"], "phase": state["phase"],
                                                            "character": holder(slot(state, ident)), "text": text})
        events.append(event("feedback", [seat], character=holder(slot(state, ident)), text=text))


def check_durations(state, value):
    for phase, seconds in value.items():
        if phase not in PHASES or type(seconds) is not int or seconds <= 0:
            raise IllegalCommand("bad_setup", f"durations: {phase!r} needs a positive number of seconds")
