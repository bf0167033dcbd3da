"""The game master's overrides (ruling 60: "any state, data, action, roll, timer, join or text"),
each with a required reason and logged with what it changed, before and after (ruling 61).

One ``override`` command may hold several parts; every part is checked before any applies:
``effects`` (state), ``deadline`` and ``durations`` (timers), ``drop`` (a pending decision),
``action`` (rewrite or withdraw an ID's submitted action or ballot; one, or a list applied in order), ``join`` (set or cancel an 在野's join)
and ``rolls`` (fix the outcome of the server's next roll of a kind; a roll already made is
corrected by the effects it should have had, as every server result stays overridable).
"""
from __future__ import annotations

from ....engines.errors import IllegalCommand
from . import decisions
from .. import roster
from ..day import votes, wounds
from ..night import actions
from ..state import GM, IN_PLAY, copy, event, holder, next_seq, slot

PARTS = ("reason", "effects", "deadline", "drop", "durations", "action", "join", "rolls")
ACTION_KINDS = ("assassinate", "skill", "identify", "reassign", "request", "vote")
# Ruling 30's rolls and the outcome each may be fixed to.
ROLLS = ("伤判", "chance", "pick", "拼点")
WOUND_OUTCOMES = ("healed", "died", "stays")


def _refuse(message):
    raise IllegalCommand("bad_override", message)


def _ident(state, value, what="an ID"):
    if type(value) is not int or not 1 <= value <= len(state["slots"]):
        _refuse(f"{what} must be an ID")
    return value


def _ids(state, values, what):
    if type(values) is not list or not all(type(v) is int for v in values):
        _refuse(f"{what} is a list of IDs")
    return [_ident(state, v, what) for v in values]


def _action_entry(state, s, kind, value):
    """The submission the GM writes for ``s``, in the shape a seat's own submission has."""
    if type(value) is not dict:
        _refuse(f"{kind} takes an object")
    stamp = {"at": state["clock"], "by_gm": True}
    if kind == "assassinate":
        return {"target": _ident(state, value.get("target"), "target"), "named": None, **stamp}
    if kind == "vote":
        # A ballot as the vote's count reads it: target null is a 散票.
        target = value.get("target")
        if value.get("follow") not in (None, "call", "group"):
            _refuse("follow is call, group or null")
        return {"voter": s["id"], "target": None if target is None else _ident(state, target, "target"),
                "follow": value.get("follow"), "scatter": target is None, "named": None, **stamp}
    if kind == "skill":
        skill = actions.find_skill(state, holder(s), value.get("skill"))
        if skill is None or skill["timing"] == "被动":
            _refuse(f"{holder(s)} has no active skill {value.get('skill')!r}")
        targets = _ids(state, value.get("targets", []), "targets")
        if len(targets) != skill.get("targets", 0):
            _refuse(f"{skill['name']} takes {skill.get('targets', 0)} target(s)")
        return {"skill": skill["name"], "timing": skill["timing"], "targets": targets, "named": [None] * len(targets),
                **stamp}
    if kind == "identify":
        specs = state["data"]["identifications"].get(holder(s), [])
        index = value.get("index")
        if type(index) is not int or not 0 <= index < len(specs):
            _refuse(f"{holder(s)} has no identification {index!r}")
        targets = _ids(state, value.get("targets", []), "targets")
        names = value.get("names", [])
        if not 1 <= len(targets) <= specs[index]["count"] or len(set(targets)) != len(targets):
            _refuse(f"this identification names 1 to {specs[index]['count']} distinct IDs")
        if type(names) is not list or not set(names) <= set(state["free"]):
            _refuse("names are 在野 of this game")
        return {"index": index, "targets": targets, "named": [None] * len(targets), "names": names, **stamp}
    if kind == "reassign":
        killer = _ident(state, value.get("killer"), "killer")
        if killer not in state["initial_killers"].get(s["country"], []):
            _refuse("改刀 names one of the country's initial 杀手 by ID")
        return {"target": _ident(state, value.get("target"), "target"), "named": None, "killer": killer,
                "killer_name": holder(slot(state, killer)), **stamp}
    if value.get("country") not in roster.COUNTRIES:
        _refuse("request names a country")
    return {"country": value["country"], **stamp}


def _check_action(state, body):
    """``{"id", "kind", "set": {...} | null, "index"?}``: the ID's action of that kind rewritten as
    given, or withdrawn (``set`` null; an identification by its ``index``)."""
    if type(body) is not dict or body.get("kind") not in ACTION_KINDS:
        _refuse(f"action takes an id, a kind among {', '.join(ACTION_KINDS)} and set")
    s = slot(state, _ident(state, body.get("id")))
    if s["status"] not in IN_PLAY:
        _refuse("that ID is not in play")
    value = body.get("set")
    entry = None if value is None else _action_entry(state, s, body["kind"], value)
    if entry is None and body["kind"] == "identify" and type(body.get("index")) is not int:
        _refuse("withdrawing an identification names its index")
    return s, body["kind"], entry, body.get("index")


def _apply_action(state, events, s, kind, entry, index):
    if entry is not None:
        entry["seq"] = next_seq(state)
    if kind == "vote":
        votes.cast(state, events, entry, voter=s["id"])
        return
    subs = state["subs"].setdefault(str(s["id"]), {})
    if kind == "identify":
        held = subs.setdefault("identify", {})
        if entry is None:
            held.pop(str(index), None)
        else:
            held[str(entry.pop("index"))] = entry
        if not held:
            subs.pop("identify")
    elif entry is None:
        subs.pop(kind, None)
    else:
        subs[kind] = entry
    if not subs:
        state["subs"].pop(str(s["id"]))


def _check_join(state, body):
    """``{"id", "country": C | null}``: the 在野 joins C at the next night's start (seats and answers
    bypassed), or its pending joins and offers are cancelled."""
    if type(body) is not dict:
        _refuse("join takes an id and a country (or null)")
    s = slot(state, _ident(state, body.get("id")))
    country = body.get("country")
    if s["country"] is not None or s["status"] not in IN_PLAY:
        _refuse("only an unjoined 在野 in play joins")
    if country is not None and (country not in roster.COUNTRIES or state["countries"][country]["destroyed"]):
        _refuse("join names a country still standing, or null")
    return s["id"], country


def _apply_join(state, ident, country):
    state["joins"] = [j for j in state["joins"] if j["id"] != ident]
    state["offers"] = [o for o in state["offers"] if o["id"] != ident]
    name = holder(slot(state, ident))
    state["pending"] = [d for d in state["pending"]
                        if not (d["kind"] in ("offer", "request") and d["about"]["character"] == name)]
    if country is not None:
        state["joins"].append({"id": ident, "country": country, "via": "天庭", "by": None})


def _check_rolls(state, rolls):
    """``[{"roll": 伤判|chance|pick|拼点, "id"?, "label"?, "outcome"}]``: the server's next roll that
    matches uses ``outcome`` instead of a draw (伤判: healed/died/stays for ``id``; chance: true or
    false for ``id``; pick: the IDs picked; 拼点: the winner's ID)."""
    if type(rolls) is not list:
        _refuse("rolls is a list")
    out = []
    for fixed in rolls:
        if type(fixed) is not dict or fixed.get("roll") not in ROLLS or set(fixed) - {"roll", "id", "label", "outcome"}:
            _refuse(f"each roll names its kind among {', '.join(ROLLS)}, an outcome, maybe an id and a label")
        kind, outcome = fixed["roll"], fixed.get("outcome")
        if kind in ("伤判", "chance"):
            _ident(state, fixed.get("id"))
        if "label" in fixed and type(fixed["label"]) is not str:
            _refuse("a label is a text")
        valid = {"伤判": outcome in WOUND_OUTCOMES, "chance": type(outcome) is bool,
                 "pick": type(outcome) is list and len(_ids(state, outcome, "outcome")) > 0,
                 "拼点": type(outcome) is int and 1 <= outcome <= len(state["slots"])}[kind]
        if not valid:
            _refuse(f"{kind}: an outcome of the wrong shape")
        out.append(dict(fixed))
    return out


def override(state, events, body):
    """Ruling 60: the GM changes anything, with a required reason; logged with before and after."""
    reason = body.get("reason")
    if type(reason) is not str or not reason.strip():
        raise IllegalCommand("reason_required", "an override needs a reason")
    if set(body) - set(PARTS):
        _refuse(f"an override takes {', '.join(PARTS[1:])}")
    durations = body.get("durations")
    if durations is not None:
        if type(durations) is not dict:
            _refuse("durations maps phases to seconds")
        decisions.check_durations(state, durations)
    effects = decisions.check_effects(state, body.get("effects", []))
    deadline = body.get("deadline")
    if deadline is not None and type(deadline) not in (int, float):
        _refuse("deadline is a number")
    if "drop" in body and not any(d["key"] == body["drop"] for d in state["pending"]):
        raise IllegalCommand("no_such_decision", f"no pending decision {body['drop']!r}")
    # Several actions are a list, applied in order (a later one of the same ID and kind wins).
    listed = body.get("action", [])
    rewrites = [_check_action(state, one) for one in (listed if type(listed) is list else [listed])]
    join = _check_join(state, body["join"]) if "join" in body else None
    rolls = _check_rolls(state, body["rolls"]) if "rolls" in body else None

    before = copy({"slots": state["slots"], "subs": state["subs"], "ballots": state["ballots"],
                   "joins": state["joins"], "fixed_rolls": state.get("fixed_rolls", [])})
    if "drop" in body:
        decision = next(d for d in state["pending"] if d["key"] == body["drop"])
        decisions.take(state, body["drop"], decision["for"])
    for action in rewrites:
        _apply_action(state, events, *action)
    if join:
        _apply_join(state, *join)
    if rolls:
        state["fixed_rolls"] = state.get("fixed_rolls", []) + rolls
    decisions.apply_effects(state, events, effects)
    if effects:
        # An override's result applies at once (ruling 60), the end checks included.
        wounds.end_check(state, events)
    if durations:
        # Ruling 12: the GM changes phase durations during play too, logged; they apply from the
        # next phase opened (the running one's end moves only with ``deadline``).
        state["data"]["durations"].update(durations)
    if deadline is not None:
        state["deadline"] = deadline
        events.append(event("deadline", phase=state["phase"], deadline=deadline))
    after = {"slots": state["slots"], "subs": state["subs"], "ballots": state["ballots"], "joins": state["joins"],
             "fixed_rolls": state.get("fixed_rolls", [])}
    changed = [{"before": b, "after": dict(a)} for b, a in zip(before["slots"], state["slots"]) if b != a]
    changes = {part: {"before": before[part], "after": copy(after[part])}
               for part in ("subs", "ballots", "joins", "fixed_rolls") if before[part] != after[part]}
    decisions.log(state, "override", reason, effects=effects, deadline=deadline, drop=body.get("drop"),
                  durations=durations, changed=changed, **changes)
    events.append(event("override", GM, reason=reason))
