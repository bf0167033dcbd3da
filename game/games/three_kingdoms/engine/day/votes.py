"""Votes (rulings 31–34, 53, 45): ballots, 跟票/散票 in votes 1–3 outside 群英荟萃局, public ballots
from vote 4 (群英荟萃局: vote 1), the count and the vote damage.

A ballot: ``{"voter", "target", "follow": "call" | "group" | None, "scatter", "seq"}``; a 散票 is
kept but never counts. The group call of a country is set by the first group ballot in submission
order (ruling 53), so it is decided at the count, when the order is final.
"""
from __future__ import annotations

from ....engines.errors import IllegalCommand
from . import wounds
from ..gm import decisions
from ..night import actions
from ..views import knowledge
from ..state import GM, event, holder, next_seq, slot

SECRET_VOTES = 3
THRESHOLD_VOTES = 3


def secret(state, vote=None):
    vote = state["night"] if vote is None else vote
    return state["mode"] != "crowd" and vote <= SECRET_VOTES


def submit(state, events, seat, body, at):
    if state["phase"] != "day_vote":
        raise IllegalCommand("wrong_phase", "votes are cast in 白天行动投票")
    s = actions.actor(state, seat, body.get("voter"))
    reason = actions.able(state, s)
    if reason:
        raise IllegalCommand(reason, f"{holder(s)} cannot vote: {reason}")
    ballot = {"voter": s["id"], "target": None, "follow": None, "scatter": bool(body.get("scatter"))}
    if ballot["scatter"] and state["mode"] == "crowd":
        raise IllegalCommand("public_vote", "群英荟萃局 has no 散票")
    if not ballot["scatter"]:
        ballot["target"], ballot["named"] = actions.target(state, seat, body.get("target"))
        follow = body.get("follow")
        if secret(state):
            if follow not in ("call", "group"):
                raise IllegalCommand("follow_required", "votes 1–3 follow a 号票 (call), the group call, or scatter")
            if follow == "call" and ballot["target"] not in state["calls"].get(s["country"] or "", []):
                raise IllegalCommand("no_call", "your country has no 号票 on that ID")
            if follow == "group" and knowledge.group_of(state, s["id"]) is None:
                raise IllegalCommand("no_group", "only a group of two or more mutually recognised IDs follows together")
        elif follow is not None:
            raise IllegalCommand("public_vote", "from this vote on every ballot is a plain vote")
        ballot["follow"] = follow
    ballot["seq"] = next_seq(state)
    events.append(event("submitted", [seat], character=holder(s), action="vote",
                        detail={k: ballot[k] for k in ("target", "follow", "scatter")}))
    cast(state, events, ballot)


def cast(state, events, ballot, voter=None):
    """The voter's ballot replaces any earlier one (``ballot`` None: withdrawn); from vote 4 (群英荟萃局:
    vote 1) it is public at once (ruling 33)."""
    voter = ballot["voter"] if ballot else voter
    state["ballots"] = [b for b in state["ballots"] if b["voter"] != voter] + ([ballot] if ballot else [])
    if not secret(state):
        public = state["public_ballots"].setdefault(str(state["night"]), [])
        public[:] = [b for b in public if b["voter"] != voter] + (
            [{"voter": voter, "target": ballot["target"]}] if ballot else [])
        events.append(event("ballot", vote=state["night"], voter=voter, target=ballot and ballot["target"]))


def _valid(state, ballot, group_calls):
    s = slot(state, ballot["voter"])
    if ballot["scatter"] or actions.able(state, s) or s["country"] is None:
        return False
    if not actions.target_ok(state, ballot["target"], ballot.get("named")):
        return False
    if not secret(state):
        return True
    if ballot["follow"] == "call":
        return ballot["target"] in state["calls"].get(s["country"], [])
    group = knowledge.group_of(state, s["id"])
    if group is None:
        return False
    call = group_calls.setdefault(s["country"], (group, ballot["target"]))
    return call == (group, ballot["target"])


def count(state, events):
    """Tally the valid ballots; a single top ID (votes 1–3: with at least 3) takes vote damage."""
    group_calls = {}
    tally, log = {}, []
    for ballot in sorted(state["ballots"], key=lambda b: b["seq"]):
        valid = _valid(state, ballot, group_calls)
        log.append({"voter": ballot["voter"], "target": ballot["target"], "valid": valid})
        if valid:
            tally[ballot["target"]] = tally.get(ballot["target"], 0) + 1
    state["ballot_log"][str(state["night"])] = log
    if state["mode"] == "solo" and secret(state):
        zhao = next((s["controller"] for s in state["slots"] if s["chain"][0] == "赵云"), None)
        events.append(event("ballots", [zhao], vote=state["night"], ballots=_public(log)))
    top = max(tally.values(), default=0)
    leaders = [t for t, n in tally.items() if n == top]
    needed = THRESHOLD_VOTES if state["night"] <= SECRET_VOTES else 1
    state["vote_result"] = None
    if len(leaders) == 1 and top >= needed:
        state["vote_result"] = {"target": leaders[0], "votes": top}
    events.append(event("tally", GM, vote=state["night"], tally=tally))


def _public(log):
    return [{"voter": b["voter"], "target": b["target"]} for b in log]


def vote_damage_level(state, target):
    """Ruling 34: none on a 女眷; death if the target is wounded or its country has no 君主 (a
    代理君主 does not count); else a wound."""
    s = slot(state, target)
    if s["identity"] == "女眷":
        return None
    if s["status"] == "wounded" or (s["country"] and state["countries"][s["country"]]["monarch_dead"]):
        return "death"
    return "wound"


def ask_defence(state, events):
    result = state["vote_result"]
    if not result:
        return
    s = slot(state, result["target"])
    level = vote_damage_level(state, result["target"])
    result["level"] = level
    passives = [k["name"] for k in actions.skills_of(state, holder(s)) if k["timing"] == "被动"]
    if level and passives:
        result["asked"] = decisions.add(state, events, "vote_defence", GM,
                                        {"target": s["id"], "character": holder(s), "level": level,
                                         "passives": passives}, ["stands", "defended"], "stands")


def apply(state, events):
    result = state["vote_result"]
    outcome = "none"
    if result and result.get("level") and not result.get("defended"):
        outcome = wounds.damage(state, events, result["target"], result["level"], cause="投票")
    state["vote_outcome"] = {"vote": state["night"], "id": result and result["target"],
                             "outcome": outcome if result else "none"}


def publish_secret_ballots(state, events):
    """Ruling 11/33: after vote 3, everyone gets ballots 1–3."""
    for vote in range(1, SECRET_VOTES + 1):
        log = state["ballot_log"].get(str(vote))
        if log is not None:
            state["public_ballots"][str(vote)] = _public(log)
            events.append(event("ballots", vote=vote, ballots=_public(log)))
