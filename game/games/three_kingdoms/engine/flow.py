"""The phases (ruling 12) and the steps each close runs, in order. Steps are names kept in
``state["steps"]`` so that a flow waiting for the game master is plain data: each command runs
steps until one queues a GM decision, and the GM's answer lets the rest run.
"""
from __future__ import annotations

from ...engines.errors import IllegalCommand
from . import roster
from .day import joining, votes, wounds
from .gm import decisions
from .night import actions, identify, resolution
from .views import knowledge
from .state import GM, event, holder, in_play, slot

CLOSE = {
    "night_action": ["night_start", "open:night_resolution"] + resolution.ORDER,
    "night_resolution": ["open:night_feedback", "feedback"],
    "night_feedback": ["announce_night", "open:day_wound"],
    "day_wound": ["day_wound_skills", "wound_rolls", "end_check", "open:day_vote"],
    "day_vote": ["day_vote_skills", "settle_joins", "count_votes", "vote_defence", "apply_vote", "end_check",
                 "open:day_feedback", "day_announce"],
    "day_feedback": ["next_night", "open:night_action", "apply_joins", "bot_draws"],
}
LAST_WORDS_NIGHTS = 6


def open_phase(state, events, phase):
    # Asked choices due by this close are over (silence = no, missing = none), except the join
    # answers, which run to the day's vote deadline (ruling 24).
    state["pending"] = [d for d in state["pending"] if d["for"] == GM or d["kind"] in ("offer", "request")]
    state["phase"] = phase
    state["deadline"] = state["clock"] + state["data"]["durations"][phase]
    if phase in ("night_action", "day_wound", "day_vote"):
        state["subs"] = {}
    events.append(event("phase", phase=phase, night=state["night"], deadline=state["deadline"]))


def close(state, events, at, forced_reason=None):
    if state["phase"] not in CLOSE:
        raise IllegalCommand("wrong_phase", "no phase is running")
    if state.get("revision"):
        if forced_reason is None and (at is None or at < state["revision"]["until"]):
            raise IllegalCommand("before_deadline", "the revision window closes at its end")
        state["revision"] = None
        events.append(event("revision_closed"))
        run(state, events)
        return
    if state["steps"] or decisions.gm_blocking(state):
        raise IllegalCommand("awaiting_gm", "the game master has decisions to make before this phase closes")
    if forced_reason is None and (at is None or at < state["deadline"]):
        raise IllegalCommand("before_deadline", "the phase closes at its deadline")
    if forced_reason is not None:
        decisions.log(state, "advance", forced_reason)
    state["steps"] = list(CLOSE[state["phase"]])
    run(state, events)


def run(state, events):
    """Run the queued steps until one waits for the game master, or the game ends."""
    while (state["steps"] and not decisions.gm_blocking(state) and state["phase"] != "over"
           and not state.get("revision")):
        step = state["steps"].pop(0)
        if step.startswith("open:"):
            open_phase(state, events, step[5:])
        else:
            STEPS[step](state, events)


def night_start(state, events):
    resolution.start(state)


def feedback(state, events):
    """夜晚反馈公告 (ruling 15): private results, recognitions, join questions, 遗言 and 代理君主."""
    work = state["work"]
    for ident, text in work["feedback"]:
        decisions.tell(state, events, ident, text)
    for entry in work["recognitions"]:
        knowledge.recognise(state, events, entry[0], entry[1], mutual=entry[2])
    for entry in work["hidden"]:
        state["hidden_recognition"].append(entry[:2])
        if len(entry) > 2:
            state["hidden_recognition"].append([entry[1], entry[0]])
    joining.ask(state, events)
    for death in state["night_report"]["deaths"]:
        s = slot(state, death["id"])
        if death["night"] and state["night"] <= LAST_WORDS_NIGHTS and s["controller"] is not None:
            decisions.add(state, events, "last_words", s["controller"], {"character": death["name"]},
                          ["write"], None, internal={"id": death["id"], "country": death["country"]})
    ask_regent(state, events)


def ask_regent(state, events):
    """Ruling 51: once the 君主 is dead, the 君主's human (else the 主军师's) names a 代理君主."""
    for country in roster.COUNTRIES:
        info = state["countries"][country]
        if not info["monarch_dead"] or info["destroyed"]:
            continue
        if info["regent"] is not None and in_play(slot(state, info["regent"])):
            continue
        monarch = next(s for s in state["slots"] if s["chain"][0] == roster.INITIAL[country][0])
        seat = monarch["controller"] if in_play(monarch) else None
        advisor = joining.chief_advisor(state, country)
        seat = seat if seat is not None else advisor and advisor["controller"]
        if seat is not None and not any(d["kind"] == "regent" and d["about"]["country"] == country
                                        for d in state["pending"]):
            decisions.add(state, events, "regent", seat, {"country": country}, ["a character of the country"], None)


def announce_night(state, events):
    report = state["night_report"]
    deaths = [{"id": d["id"], "left": not in_play(slot(state, d["id"]))} for d in report["deaths"]]
    announcement = {"night": state["night"], "deaths": deaths, "wounded": sorted(set(report["wounds"])),
                    "last_words": report["last_words"],
                    "destroyed": [c for c in roster.COUNTRIES if state["countries"][c]["destroyed"]],
                    "alliances": [list(a) for a in state["alliances"]], "texts": report["texts"]}
    state["announcements"].append(announcement)
    events.append(event("announcement", **announcement))
    publish_ids(state)
    _reset_report(state)


def publish_ids(state):
    """What everyone knows of each ID's status: set only when an announcement says it (the night's
    announcement, the 伤判 outcomes, the vote's outcome, a destroyed country's leaving)."""
    for s in state["slots"]:
        state["public_ids"][str(s["id"])] = {"left": not in_play(s), "wounded": s["wound"] is not None}


def _reset_report(state):
    state["night_report"] = {"deaths": [], "wounds": [], "last_words": [], "texts": []}


def day_skills(timing):
    def step(state, events):
        for key, subs in sorted(state["subs"].items()):
            entry = subs.get("skill")
            if entry and entry["timing"] == timing:
                s = slot(state, int(key))
                skill = actions.find_skill(state, holder(s), entry["skill"]) or {}
                decisions.add(state, events, "skill", GM, {"stage": timing, "actor": s["id"], "character": holder(s),
                                                           "skill": entry["skill"], "targets": entry["targets"],
                                                           "text": skill.get("text", "")},
                              ["effects"], skill.get("effects", []))
    return step


def day_announce(state, events):
    """白天反馈公告 (ruling 18): the outcome with no reason, then after vote 3 the reveal."""
    outcome = state["vote_outcome"]
    harmed = outcome["outcome"] != "none"
    events.append(event("vote_outcome", vote=outcome["vote"], id=outcome["id"] if harmed else None,
                        outcome=outcome["outcome"] if harmed else "无人受伤"))
    publish_ids(state)
    if state["night"] == votes.SECRET_VOTES:
        votes.publish_secret_ballots(state, events)
        knowledge.reveal(state, events)
        zhao = next((s for s in state["slots"] if s["chain"][0] == "赵云"), None)
        if zhao is not None and zhao["controller"] is not None and state.get("zhao_yun_targets"):
            events.append(event("zhao_yun_targets", [zhao["controller"]], targets=state["zhao_yun_targets"]))
    _reset_report(state)


def next_night(state, events):
    state["night"] += 1
    for s in state["slots"]:
        s["immediate"] = False
    state["day_skill_used"] = []
    state["ballots"] = []
    _reset_report(state)


def _wound_rolls(state, events):
    wounds.wound_rolls(state, events)
    publish_ids(state)


def _end_check(state, events):
    wounds.end_check(state, events)
    publish_ids(state)


STEPS = dict(resolution.STEPS)
STEPS.update({
    "night_start": night_start, "identifications": identify.identifications, "end_check": _end_check,
    "feedback": feedback, "announce_night": announce_night, "day_wound_skills": day_skills("白天受伤判定"),
    "wound_rolls": _wound_rolls, "day_vote_skills": day_skills("白天行动投票"), "settle_joins": joining.settle,
    "count_votes": votes.count, "vote_defence": votes.ask_defence, "apply_vote": votes.apply,
    "day_announce": day_announce, "next_night": next_night, "apply_joins": joining.apply_joins,
    "bot_draws": joining.bot_draws,
})
