"""在野 joining a country (rulings 24, 47, 48, 52): offers (招揽, 联盟入国) put to the 在野, requests
(主动投奔) put to the 主军师, answers by the day's vote deadline, seats per country never freed,
priority 联盟入国 > 君主招揽 > 主动投奔 then the earlier answer, joining at the next night's start.
Unjoined 在野 in the modes where they are bots answer and act by the server's draws.
"""
from __future__ import annotations

from . import wounds
from .. import roster
from ..gm import decisions
from ..night import actions
from ..views import knowledge
from ..gm.setup import NIGHT_TIMINGS
from ..state import event, holder, in_play, next_seq, rand_below, slot

PRIORITY = {"联盟": 0, "招揽": 1, "投奔": 2}


def free_seats(state, country):
    taken = state["countries"][country]["seats_used"] + sum(1 for j in state["joins"] if j["country"] == country)
    return roster.SEATS_PER_COUNTRY[state["size"]] - taken


def chief_advisor(state, country):
    for s in state["slots"]:
        if s["country"] == country and in_play(s) and s["identity"] == "军师" and s["rank"] == "主":
            return s
    return None


def _offer(state, events, ident, country, via, by=None):
    s = slot(state, ident)
    offer = {"id": ident, "country": country, "via": via, "by": by, "accepted": None, "answered": None, "key": None}
    state["offers"].append(offer)
    if via == "投奔":
        advisor = chief_advisor(state, country)
        if advisor is None or advisor["controller"] is None:
            offer["accepted"] = False
            return
        offer["key"] = decisions.add(state, events, "request", advisor["controller"],
                                     {"character": holder(s), "country": country}, ["yes", "no"], "no")
    elif s["controller"] is None:
        # Ruling 24: a bot accepts an offer that has a seat.
        offer["accepted"] = free_seats(state, country) > 0
        offer["answered"] = next_seq(state)
    else:
        offer["key"] = decisions.add(state, events, "offer", s["controller"],
                                     {"character": holder(s), "country": country, "via": via}, ["yes", "no"], "no")


def ask(state, events):
    """At 夜晚反馈公告: the night's 招揽 hits and 主动投奔 requests are asked."""
    for offer in state["work"]["offers"]:
        if slot(state, offer["id"])["country"] is None:
            _offer(state, events, offer["id"], offer["country"], "招揽", offer["by"])
    for key, subs in state["subs"].items():
        request = subs.get("request")
        if request and slot(state, int(key))["country"] is None:
            _offer(state, events, int(key), request["country"], "投奔")


def answer(state, decision, choice):
    for offer in state["offers"]:
        if offer["key"] == decision["key"]:
            offer["accepted"] = choice == "yes"
            offer["answered"] = next_seq(state)


def alliance(state, events, countries, on):
    """Ruling 48: an alliance (or its end) is recorded and announced; when one is made, every
    unjoined 在野 is asked to join the third country."""
    pair = sorted(countries)
    if on and pair not in state["alliances"]:
        state["alliances"].append(pair)
    elif not on and pair in state["alliances"]:
        state["alliances"].remove(pair)
    state["night_report"]["texts"].append(f"{'、'.join(pair)}{'结盟' if on else '解除同盟'}")
    if on:
        third = next(c for c in roster.COUNTRIES if c not in pair)
        if not state["countries"][third]["destroyed"]:
            for s in state["slots"]:
                if s["country"] is None and in_play(s):
                    _offer(state, events, s["id"], third, "联盟")


def settle(state, events):
    """At the day's vote close: silence is no; accepted ones get seats by priority, then the earlier
    answer; they join at the next night's start."""
    for decision in [d for d in state["pending"] if d["kind"] in ("offer", "request")]:
        state["pending"].remove(decision)
    accepted = sorted((o for o in state["offers"] if o["accepted"]),
                      key=lambda o: (PRIORITY[o["via"]], o["answered"] or 0))
    placed = set()
    for offer in accepted:
        s = slot(state, offer["id"])
        if offer["id"] in placed or s["country"] is not None or not in_play(s):
            continue
        if state["countries"][offer["country"]]["destroyed"] or free_seats(state, offer["country"]) <= 0:
            continue
        placed.add(offer["id"])
        state["joins"].append({"id": offer["id"], "country": offer["country"], "via": offer["via"],
                               "by": offer["by"]})
    state["offers"] = []


def _new_controller(state, country):
    mode = state["mode"]
    if mode == "crowd":
        return None
    if mode == "nine":
        monarch = roster.INITIAL[country][0]
        return next(s["controller"] for s in state["slots"] if s["chain"][0] == monarch)
    return roster.COUNTRIES.index(country)


def apply_joins(state, events):
    """Night N+1 opens with the joins: 平民 of the country, mutual with the 君主 who recruited them
    or with the 主军师 (none without 军师, ruling 52)."""
    for join in state["joins"]:
        s = slot(state, join["id"])
        country = join["country"]
        if not in_play(s) or state["countries"][country]["destroyed"]:
            continue
        s["country"], s["identity"], s["rank"] = country, "平民", None
        controller = _new_controller(state, country)
        if controller is not None:
            s["controller"] = controller
        state["countries"][country]["seats_used"] += 1
        events.append(event("joined", "gm", id=s["id"], country=country, via=join["via"]))
        if s["controller"] is not None:
            events.append(event("joined", [s["controller"]], character=holder(s), country=country))
        partner = join["by"] if join["via"] == "招揽" else None
        advisor = chief_advisor(state, country)
        partner = partner if partner and in_play(slot(state, partner)) else advisor and advisor["id"]
        if partner:
            knowledge.recognise(state, events, s["id"], partner, mutual=True)
    state["joins"] = []


def bot_draws(state, events):
    """Ruling 24: each bot-played unjoined 在野 asks to join (from night 2) the country that hurt it
    most (then first), else a random country with room, and uses one usable active skill drawn
    uniformly, on random legal targets."""
    if state["mode"] == "crowd":
        return
    for s in state["slots"]:
        if s["country"] is not None or s["controller"] is not None or actions.able(state, s):
            continue
        subs = state["subs"].setdefault(str(s["id"]), {})
        if state["night"] >= 2:
            country = _bot_country(state, s)
            if country:
                subs["request"] = {"country": country, "seq": next_seq(state), "at": state["clock"], "bot": True}
        usable = [k for k in actions.skills_of(state, holder(s)) if k["timing"] in NIGHT_TIMINGS[1:]]
        if usable:
            skill = usable[rand_below(state, len(usable))]
            pool = [o["id"] for o in state["slots"] if o["status"] in ("normal", "wounded") and o["id"] != s["id"]]
            targets = [pool[rand_below(state, len(pool))] for _ in range(skill.get("targets", 0))] if pool else []
            if len(targets) == skill.get("targets", 0):
                subs["skill"] = {"skill": skill["name"], "timing": skill["timing"], "targets": targets,
                                 "named": [None] * len(targets), "seq": next_seq(state), "at": state["clock"],
                                 "bot": True}
        if subs:
            # A copy: the close's legality may void one of them, which must not rewrite this event.
            events.append(event("bot_actions", "gm", id=s["id"], actions={k: dict(v) for k, v in subs.items()}))


def _bot_country(state, s):
    def open_to(country):
        return (not state["countries"][country]["destroyed"] and wounds.has_advisor(state, country)
                and free_seats(state, country) - _requests(state, country) > 0)

    hurt = state["hurt_by"].get(str(s["id"]), {})
    ranked = sorted(hurt.items(), key=lambda item: (-item[1][0], item[1][1]))
    for country, _ in ranked:
        if open_to(country):
            return country
    room = [c for c in roster.COUNTRIES if open_to(c)]
    return room[rand_below(state, len(room))] if room else None


def _requests(state, country):
    """Bot requests already drawn tonight, so no country is asked by more 在野 than it has seats."""
    return sum(1 for subs in state["subs"].values() if subs.get("request", {}).get("country") == country)
