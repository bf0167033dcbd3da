"""``new_match`` and ``apply``: every command of every seat goes through ``apply``, which checks
it, changes a copy of the state (or the state itself with ``in_place``) and returns the events.
A refused command raises ``IllegalCommand`` and changes nothing."""
from __future__ import annotations

import math

from ...engines.errors import IllegalCommand
from . import flow, roster
from .day import joining, votes, wounds
from .gm import answers, decisions, overrides
from .night import actions
from .gm.setup import apply_setup, default_data, lock
from .state import GM, MODES, SERVER, copy, new_state, seats

SEAT_COMMANDS = ("assassinate", "skill", "identify", "reassign", "request", "suicide", "cancel", "vote", "answer",
                 "last_words", "peace")
GM_COMMANDS = ("setup", "lock", "resolve", "override", "advance", "alliance", "announce", "feedback", "draw",
               "zhao_yun_pool")
SERVER_COMMANDS = ("close",)


def new_match(seed, mode="standard", characters=27):
    if mode not in MODES:
        raise IllegalCommand("bad_mode", f"mode is one of {', '.join(MODES)}")
    if characters not in roster.FREE_COUNT:
        raise IllegalCommand("bad_size", "characters is 27, 30 or 33")
    if type(seed) is not int:
        raise IllegalCommand("bad_seed", "the seed is an integer")
    state = new_state(seed, mode, characters)
    state["data"] = default_data(state)
    return state


def command_kind(seat, command):
    """The command's one kind (besides ``at``), checked against what the seat may send."""
    if type(command) is not dict:
        raise IllegalCommand("bad_command", "a command is an object")
    kinds = [k for k in command if k != "at"]
    allowed = GM_COMMANDS if seat == GM else SERVER_COMMANDS if seat == SERVER else SEAT_COMMANDS
    if len(kinds) != 1 or kinds[0] not in allowed:
        raise IllegalCommand("bad_command", f"this seat sends exactly one of {', '.join(allowed)}")
    if type(command[kinds[0]]) is not dict:
        raise IllegalCommand("bad_command", f"{kinds[0]} takes an object")
    at = command.get("at")
    if at is not None and (type(at) not in (int, float) or not math.isfinite(at)):
        raise IllegalCommand("bad_time", "at is a number (the server's clock)")
    return kinds[0]


def apply(state, seat, command, *, in_place=False):
    if not (seat in (GM, SERVER) or (type(seat) is int and seat in seats(state))):
        raise IllegalCommand("bad_seat", f"no seat {seat!r}")
    kind = command_kind(seat, command)
    if state["phase"] == "over":
        raise IllegalCommand("game_over", "the game is over")
    if state["phase"] == "setup" and kind not in ("setup", "lock", "draw"):
        raise IllegalCommand("setup", "the game master has not locked the game data yet")
    work = state if in_place else copy(state)
    events = []
    at = command.get("at")
    if at is not None:
        work["clock"] = max(work["clock"], at)
    HANDLERS[kind](work, events, seat, command[kind], at)
    flow.run(work, events)
    return work, events


def _lock(state, events, seat, body, at):
    if state["locked"]:
        raise IllegalCommand("locked", "already locked")
    lock(state, events)
    state["night"] = 1
    flow.open_phase(state, events, "night_action")
    joining.bot_draws(state, events)


def _immediate(state, events, s, entry):
    """Ruling 29: a 立刻 skill resolves on receipt, the GM deciding its outcome in the live lane."""
    skill = actions.find_skill(state, s["chain"][s["holder"]], entry["skill"]) or {}
    decisions.add(state, events, "skill", GM, {"stage": "immediate", "actor": s["id"],
                                              "character": s["chain"][s["holder"]], "skill": entry["skill"],
                                              "targets": entry["targets"], "text": skill.get("text", "")},
                  ["effects"], skill.get("effects", []))


def _alliance(state, events, seat, body, at):
    countries, on = body.get("countries"), body.get("on", True)
    if (type(countries) is not list or len(countries) != 2 or not all(c in roster.COUNTRIES for c in countries)
            or countries[0] == countries[1]):
        raise IllegalCommand("bad_alliance", "an alliance names two countries")
    if type(on) is not bool:
        raise IllegalCommand("bad_alliance", "on is true (made) or false (ended)")
    joining.alliance(state, events, countries, on)
    decisions.log(state, "alliance", None, countries=sorted(countries), on=on)


def _zhao_yun_pool(state, events, seat, body, at):
    """Ruling 25: the GM may have 残兵之首's draws made inside or outside a country's 号票s."""
    country, inside = body.get("country"), body.get("inside")
    if country is None:
        state["zhao_yun_pool"] = None
    elif country in roster.COUNTRIES and type(inside) is bool:
        state["zhao_yun_pool"] = {"country": country, "inside": inside}
    else:
        raise IllegalCommand("bad_pool", "name a country and inside (true) or outside (false) its 号票s")
    decisions.log(state, "zhao_yun_pool", None, pool=state["zhao_yun_pool"])


def _announce(state, events, seat, body, at):
    if type(body.get("text")) is not str:
        raise IllegalCommand("bad_text", "announce takes a text")
    state["night_report"]["texts"].append(body["text"][:2000])


def _draw(state, events, seat, body, at):
    reason = body.get("reason")
    if type(reason) is not str or not reason.strip():
        raise IllegalCommand("reason_required", "a declared draw needs a reason")
    decisions.log(state, "draw", reason)
    wounds.finish(state, events, "draw", "declared")


def _advance(state, events, seat, body, at):
    reason = body.get("reason")
    if type(reason) is not str or not reason.strip():
        raise IllegalCommand("reason_required", "closing a phase early needs a reason")
    flow.close(state, events, at, forced_reason=reason)


HANDLERS = {
    "assassinate": lambda st, ev, seat, body, at: actions.submit_night(st, ev, seat, "assassinate", body, at),
    "identify": lambda st, ev, seat, body, at: actions.submit_night(st, ev, seat, "identify", body, at),
    "reassign": lambda st, ev, seat, body, at: actions.submit_night(st, ev, seat, "reassign", body, at),
    "request": lambda st, ev, seat, body, at: actions.submit_night(st, ev, seat, "request", body, at),
    "skill": lambda st, ev, seat, body, at: actions.submit_skill(st, ev, seat, body, at, _immediate),
    "suicide": lambda st, ev, seat, body, at: actions.suicide(st, ev, seat, body, at),
    "cancel": lambda st, ev, seat, body, at: actions.cancel(st, ev, seat, body),
    "vote": lambda st, ev, seat, body, at: votes.submit(st, ev, seat, body, at),
    "answer": lambda st, ev, seat, body, at: answers.answer(st, ev, seat, body),
    "last_words": lambda st, ev, seat, body, at: answers.last_words(st, ev, seat, body),
    "peace": lambda st, ev, seat, body, at: answers.peace(st, ev, seat),
    "setup": lambda st, ev, seat, body, at: apply_setup(st, ev, body),
    "lock": _lock,
    "resolve": lambda st, ev, seat, body, at: answers.resolve(st, ev, body),
    "override": lambda st, ev, seat, body, at: overrides.override(st, ev, body),
    "advance": _advance,
    "alliance": _alliance,
    "announce": _announce,
    "zhao_yun_pool": _zhao_yun_pool,
    "feedback": lambda st, ev, seat, body, at: answers.gm_feedback(st, ev, body),
    "draw": _draw,
    "close": lambda st, ev, seat, body, at: flow.close(st, ev, at),
}


def awaiting(state):
    """Who owes something now: ``{"gm": bool, "seats": [...]}`` — the GM with pending decisions (or
    the data to lock), the seats with asked choices or characters that may act in this phase."""
    if state["phase"] == "over":
        return {"gm": False, "seats": []}
    gm = state["phase"] == "setup" or decisions.gm_blocking(state)
    owing = {d["for"] for d in state["pending"] if d["for"] != GM}
    if state["phase"] in ("night_action", "day_wound", "day_vote"):
        owing |= {s["controller"] for s in state["slots"]
                  if s["controller"] is not None and actions.able(state, s) is None}
    return {"gm": gm, "seats": sorted(owing)}
