"""Answers to pending decisions: the game master's (``resolve``) and the seats' (``answer``,
``last_words``), and the seats' other calls outside the night's actions (议和, ruling 54)."""
from __future__ import annotations

import re

from ....engines.errors import IllegalCommand
from . import decisions
from .. import roster
from ..day import joining, wounds
from ..state import GM, event, holder, in_play, slot, slot_of

# Ruling 26: the server flags what looks like an ID inside a 遗言's text for the GM.
ID_LIKE = re.compile(r"\d+")
LAST_WORDS_MAX = 500


def resolve(state, events, body):
    """The GM's answer to one of its decisions."""
    key = body.get("decision")
    decision = next((d for d in state["pending"] if d["key"] == key and d["for"] == GM), None)
    if decision is None:
        raise IllegalCommand("no_such_decision", f"no pending decision {key!r} for the game master")
    kind = decision["kind"]
    about = decision["about"]
    if kind == "skill":
        context = {"actor": about["actor"], "trigger": about.get("trigger"),
                   "target": about["targets"][0] if about["targets"] else None}
        effects = decisions.check_effects(state, body.get("effects", decision["default"]), context)
        state["pending"].remove(decision)
        queue = state["work"]["damage"] if about["stage"] == "during" else None
        decisions.apply_effects(state, events, effects, queue, source=slot(state, about["actor"])["country"],
                                cause=about["skill"])
        detail = {"effects": effects}
    elif kind == "defence":
        defended = body.get("defended", [])
        indexes = {d["index"] for d in about["damage"]}
        if type(defended) is not list or not all(type(i) is int for i in defended) or not set(defended) <= indexes:
            raise IllegalCommand("bad_answer", f"defended lists indexes among {sorted(indexes)}")
        state["pending"].remove(decision)
        for index in defended:
            hit = state["work"]["damage"][index]
            hit["defended"] = True
            wounds.grudge(state, hit["target"], hit["source"], 0)
        detail = {"defended": defended}
    elif kind == "vote_defence":
        choice = body.get("choice", "stands")
        if choice not in decision["options"]:
            raise IllegalCommand("bad_answer", "stands or defended")
        state["pending"].remove(decision)
        state["vote_result"]["defended"] = choice == "defended"
        detail = {"choice": choice}
    else:
        detail = _review_last_words(state, events, decision, body)
    decisions.log(state, "decision", body.get("reason"), decision=key, decision_kind=kind, **detail)
    events.append(event("resolved", GM, decision=key, **detail))


def _review_last_words(state, events, decision, body):
    choice = body.get("choice", "approve")
    if choice not in ("approve", "reject", "edit"):
        raise IllegalCommand("bad_answer", "approve, edit or reject")
    words = dict(decision["about"])
    if choice == "edit":
        text = body.get("text")
        if type(text) is not str:
            raise IllegalCommand("bad_answer", "an edit gives the text")
        words["text"] = text[:LAST_WORDS_MAX]
    state["pending"].remove(decision)
    if choice != "reject":
        state["night_report"]["last_words"].append({k: words[k] for k in ("id", "country", "call", "text")})
        true_country = decision["internal"]["country"]
        if words["call"] is not None and true_country:
            state["calls"][true_country].append(words["call"])
    return {"choice": choice}


def answer(state, events, seat, body):
    decision = decisions.take(state, body.get("decision"), seat)
    choice = body.get("choice")
    if decision["kind"] in ("offer", "request"):
        if choice not in ("yes", "no"):
            state["pending"].append(decision)
            raise IllegalCommand("bad_answer", "yes or no")
        joining.answer(state, decision, choice)
    elif decision["kind"] == "regent":
        country = decision["about"]["country"]
        s = slot_of(state, choice) if type(choice) is str else None
        if s is None or s["country"] != country:
            state["pending"].append(decision)
            raise IllegalCommand("bad_answer", f"name a character of {country} in play")
        state["countries"][country]["regent"] = s["id"]
    else:
        state["pending"].append(decision)
        raise IllegalCommand("bad_answer", "this decision is answered with last_words")
    events.append(event("answered", [seat], decision=decision["key"], choice=choice))
    events.append(event("answered", GM, decision=decision["key"], choice=choice))


def last_words(state, events, seat, body):
    """Ruling 26: optional declared country, optional 号票 on one ID, a text; the GM reviews it."""
    decision = decisions.take(state, body.get("decision"), seat)
    try:
        if decision["kind"] != "last_words":
            raise IllegalCommand("bad_answer", "this decision is not a 遗言")
        text, call, country = body.get("text", ""), body.get("call"), body.get("country")
        if type(text) is not str or len(text) > LAST_WORDS_MAX:
            raise IllegalCommand("bad_last_words", f"a 遗言 is a text of at most {LAST_WORDS_MAX} characters")
        if call is not None and (type(call) is not int or not 1 <= call <= len(state["slots"])):
            raise IllegalCommand("bad_last_words", "the 号票 names one ID")
        if country not in (None,) + roster.COUNTRIES:
            raise IllegalCommand("bad_last_words", "the declared country is 魏, 蜀 or 吴")
        tokens = ID_LIKE.findall(text)
        if len(tokens) + (call is not None) > 1:
            raise IllegalCommand("second_id", "a 遗言 names one ID at most")
    except IllegalCommand:
        state["pending"].append(decision)
        raise
    about = {"id": decision["internal"]["id"], "character": decision["about"]["character"], "country": country,
             "call": call, "text": text, "flagged": tokens}
    decisions.add(state, events, "last_words_review", GM, about, ["approve", "edit", "reject"], "approve",
                  internal=decision["internal"])
    events.append(event("submitted", [seat], character=decision["about"]["character"], action="last_words",
                        detail={"country": country, "call": call, "text": text}))


def peace(state, events, seat):
    """Ruling 54: each standing country asks through its 君主's human (else 代理君主's, 主军师's, any
    of its humans); all in the same night or the same day → draw."""
    country = next((s["country"] for s in state["slots"] if s["controller"] == seat and s["country"]), None)
    if country is None or state["countries"][country]["destroyed"]:
        raise IllegalCommand("no_country", "only a standing country asks for peace")
    if seat != speaker(state, country):
        raise IllegalCommand("not_speaker", "peace is asked by the 君主's human (else 代理君主's, 主军师's)")
    half = ("night" if state["phase"].startswith("night") else "day", state["night"])
    if state["peace"]["half"] != list(half):
        state["peace"] = {"half": list(half), "countries": []}
    if country not in state["peace"]["countries"]:
        state["peace"]["countries"].append(country)
    events.append(event("peace_asked", GM, country=country))
    standing = [c for c in roster.COUNTRIES if not state["countries"][c]["destroyed"]]
    if set(standing) <= set(state["peace"]["countries"]):
        wounds.finish(state, events, "draw", "peace")


def speaker(state, country):
    def seat_of(s):
        return s["controller"] if s is not None and in_play(s) else None

    monarch = next((s for s in state["slots"] if s["country"] == country and s["identity"] == "君主"), None)
    regent = state["countries"][country]["regent"]
    for candidate in (seat_of(monarch), seat_of(regent and slot(state, regent)),
                      seat_of(joining.chief_advisor(state, country))):
        if candidate is not None:
            return candidate
    return min((s["controller"] for s in state["slots"] if s["country"] == country and s["controller"] is not None),
               default=None)


def gm_feedback(state, events, body):
    ident, text = body.get("id"), body.get("text")
    if type(ident) is not int or not 1 <= ident <= len(state["slots"]) or type(text) is not str:
        raise IllegalCommand("bad_feedback", "feedback takes an ID and a text")
    decisions.tell(state, events, ident, text[:2000])
    decisions.log(state, "feedback", None, id=ident, text=text[:2000], character=holder(slot(state, ident)))
