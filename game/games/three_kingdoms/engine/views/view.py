"""What each audience may know. The only module that decides it (rulings 8–11, 33, 61).

Audiences: a human seat (0..n-1), ``"gm"`` (everything), ``"spectator"`` (public announcements and
public ballots only) and ``"all"`` (everything: replays after the end). A seat sees its characters,
the IDs it knows (``known``, recorded when learned), its own submissions, feedback, asked choices
and channels; never an ID it was not told, others' submissions, or secret ballots.
"""
from __future__ import annotations

from ....engines import audiences
from ....engines.errors import IllegalCommand
from . import knowledge
from .. import roster
from ..gm.decisions import public_form
from ..rules import awaiting
from ..state import GM, copy, holder

EVERYTHING = (GM, "all")


def check(state, audience):
    if audience == "all" and state["phase"] != "over":
        # "all" is the replay's audience after the end; during play only the GM sees everything.
        raise IllegalCommand("not_over", "the all audience is for replays after the end; the game master views gm")
    if audience in EVERYTHING or audience == "spectator":
        return
    if isinstance(audience, bool) or type(audience) is not int or not 0 <= audience < len(state["seat_names"]):
        raise ValueError(f"Unknown audience {audience!r}")


def sees(event, audience):
    to = event["to"]
    return audience in EVERYTHING or to == "public" or (type(to) is list and audience in to)


def project(events, audience):
    def valid(a):
        if not (a in EVERYTHING or a == "spectator" or (type(a) is int and not isinstance(a, bool) and a >= 0)):
            raise ValueError(f"Unknown audience {a!r}")

    return audiences.project(events, audience, lambda e, a: e if sees(e, a) else None, valid)


def _status(s, index, live):
    if index < s["holder"]:
        return "dead"
    if index > s["holder"]:
        return "waiting"
    return s["status"] if live else ("left" if s["status"] == "left" else "wounded" if s["wound"] else "in_play")


def _characters(state, audience):
    out = []
    everything = audience in EVERYTHING
    known = {} if audience == "spectator" or everything else state["known"][str(audience)]
    for s in state["slots"]:
        own = s["controller"] == audience
        for index, name in enumerate(s["chain"]):
            initial = index == 0
            knows_id = everything or name in known.get(str(s["id"]), ())
            if not (everything or own or initial or knows_id):
                continue
            if not everything and not own and index > s["holder"]:
                continue
            if everything or own:
                country = s["country"] if index == s["holder"] else s["initial_country"] if initial else s["country"]
                identity = s["identity"] if index == s["holder"] else _roster_identity(state, name)
            else:
                country = s["initial_country"] if initial else None
                identity = _roster_identity(state, name) if initial else None
            visible = everything or own or knows_id
            out.append({"name": name, "country": country, "identity": identity,
                        "id": s["id"] if knows_id else None,
                        "status": _status(s, index, everything or own) if visible and (knows_id or everything
                                                                                      or own) else None,
                        "controlled": own or None})
    return out


def _roster_identity(state, name):
    facts = state["data"]["characters"].get(name, {})
    return facts.get("identity") if facts.get("country") else None


def view(state, audience):
    """The state as ``audience`` may know it: a fresh JSON-ready dict sharing nothing with the state."""
    return copy(_view(state, audience))


def _view(state, audience):
    check(state, audience)
    everything = audience in EVERYTHING
    result = {
        "mode": state["mode"], "characters_count": state["size"], "seats": list(state["seat_names"]),
        "phase": state["phase"], "night": state["night"], "deadline": state["deadline"], "winner": state["winner"],
        "revision_until": state["revision"]["until"] if state.get("revision") else None,
        "end_reason": state["end_reason"], "winning_seats": state.get("winning_seats", []),
        "awaiting": _awaiting(state, audience),
        "ids": [{"id": int(i), **v} for i, v in state["public_ids"].items()],
        "destroyed": [c for c in roster.COUNTRIES if state["countries"][c]["destroyed"]],
        "alliances": state["alliances"], "announcements": state["announcements"],
        "ballots": state["public_ballots"], "free": list(state["free"]),
        "characters": _characters(state, audience),
    }
    if everything:
        result["pending"] = [dict(d) for d in state["pending"]]
        result["internal"] = state
        return result
    if audience == "spectator":
        result["pending"] = []
        return result
    seat = audience
    own = [s for s in state["slots"] if s["controller"] == seat]
    result.update({
        "seat": seat,
        "pending": [public_form(d) for d in state["pending"] if d["for"] == seat],
        "known": {i: list(n) for i, n in state["known"][str(seat)].items()},
        "feedback": state["feedback"].get(str(seat), []),
        "channels": [{"seats": c["seats"]} for c in knowledge.channels(state) if seat in c["seats"]] + [{"gm": True}],
        "submissions": [_submission(state, s, kind, entry) for s in own
                        for kind, entry in state["subs"].get(str(s["id"]), {}).items()],
        "skills": [k for k in state["data"]["skills"] if any(k["owner"] == holder(s) for s in own)],
        "identifications": {holder(s): state["data"]["identifications"].get(holder(s), []) for s in own},
    })
    if state["mode"] == "solo" and any(s["chain"][0] == roster.ZHAO_YUN for s in own):
        # Ruling 2: 赵云's seat sees ballots 1–3 right after each vote.
        result["ballots"] = dict(result["ballots"], **{v: [{"voter": b["voter"], "target": b["target"]} for b in log]
                                                      for v, log in state["ballot_log"].items()})
    return result


def _awaiting(state, audience):
    """Who owes something: all of it for the GM; for others only whether the GM does and whether
    they do — which seats may still act would tell whose characters are wounded or gone."""
    owing = awaiting(state)
    if audience in EVERYTHING:
        return owing
    if audience == "spectator":
        return {"gm": owing["gm"]}
    return {"gm": owing["gm"], "you": audience in owing["seats"]}


def _submission(state, s, kind, entry):
    detail = {k: v for k, v in entry.items() if k not in ("killer", "bot")}
    return {"character": holder(s), "action": kind, **detail}
