"""Night resolution in the rulings' order (ruling 28), one step per function; a step that needs the
game master queues decisions and the flow waits for their answers (``flow.run``).

``state["work"]`` holds the night's working data: the damage queued for stage 3, the results of
identifications (read at the close, delivered in 夜晚反馈公告) and which skill uses are resolved.
"""
from __future__ import annotations

from . import actions, luck
from ..day import wounds
from ..gm import decisions
from ..state import GM, event, holder, in_play, slot

STAGE_TIMINGS = {"pre_settlement": "预结算前", "global": "全局", "during": "结算时", "after": "结算后"}
# Ruling 12/28: the revision window after 预结算前 skills: 15 minutes, an hour with 料敌机先.
REVISION = 900
LONG_REVISION = 3600
LONG_SKILL = "料敌机先"


def start(state):
    state["work"] = {"damage": [], "feedback": [], "recognitions": [], "hidden": [], "offers": [], "passives": [],
                     "done": []}


def _void(state, events, s, kind, reason):
    state["subs"].get(str(s["id"]), {}).pop(kind, None)
    if s["controller"] is not None:
        events.append(event("void", [s["controller"]], character=holder(s), action=kind, reason=reason))


def legality(state, events):
    """Step 1: what can no longer be done at the close is void, its owner told why (ruling 19)."""
    for key, subs in list(state["subs"].items()):
        s = slot(state, int(key))
        for kind, entry in list(subs.items()):
            skill = actions.find_skill(state, holder(s), entry.get("skill")) if "skill" in entry else None
            if kind == "skill" and entry.get("timing") == "立刻":
                continue
            reason = actions.able(state, s, skill)
            if reason is None and kind not in ("assassinate", "request") and wounds.advisor_rule_applies(
                    state, s["country"]):
                reason = "no_advisor"
            if reason is None and kind == "assassinate" and s["identity"] != "杀手":
                reason = "not_a_killer"
            if reason is None and kind == "request" and s["country"] is not None:
                reason = "joined"
            targets = entry["targets"] if "targets" in entry else [entry["target"]] if "target" in entry else []
            named = entry.get("named") or [None] * len(targets)
            named = named if type(named) is list else [named]
            if reason is None and not all(actions.target_ok(state, t, n) for t, n in zip(targets, named)):
                reason = "bad_target"
            if reason:
                _void(state, events, s, kind, reason)
        _draw_zhao_yun(state, events, s, subs)


def _draw_zhao_yun(state, events, s, subs):
    """Ruling 25: 残兵之首 on nights 1–3 gets a target the server draws among the IDs in play but his."""
    entry = subs.get("skill")
    if not entry or entry["skill"] != "残兵之首" or holder(s) != "赵云" or state["night"] > 3 or entry.get("drawn"):
        return
    pool = [o["id"] for o in state["slots"] if o["status"] in ("normal", "wounded") and o["id"] != s["id"]]
    choice = state.get("zhao_yun_pool")
    if choice:
        calls = set(state["calls"][choice["country"]])
        narrowed = [i for i in pool if (i in calls) == choice["inside"]]
        pool = narrowed or pool
    if pool:
        # A random pick of whom to harm (ruling 30): 优判 is never drawn, 劣判 always.
        (drawn,) = luck.pick(state, events, pool, 1, False, "残兵之首")
        entry["targets"], entry["named"], entry["drawn"] = [drawn], [None], True
        state.setdefault("zhao_yun_targets", []).append({"night": state["night"], "id": drawn})


def double_kill_and_reassign(state, events):
    """Step 2 (rulings 50, 23): both initial killers 刺杀 → the 副's fails first; then 改刀."""
    for country, killers in state["initial_killers"].items():
        subs = [state["subs"].get(str(k), {}) for k in killers]
        if len(killers) == 2 and all("assassinate" in s for s in subs):
            _void(state, events, slot(state, killers[1]), "assassinate", "double_kill")
    for key, subs in list(state["subs"].items()):
        entry = subs.pop("reassign", None)
        if entry is None:
            continue
        advisor = slot(state, int(key))
        country = advisor["country"]
        state["countries"][country]["reassign_used"] = True
        killer = slot(state, entry["killer"])
        if actions.able(state, killer) or killer["identity"] != "杀手":
            events.append(event("void", [advisor["controller"]], character=holder(advisor), action="reassign",
                                reason="killer_cannot_act"))
            continue
        for other in state["initial_killers"][country]:
            state["subs"].get(str(other), {}).pop("assassinate", None)
        killer_subs = state["subs"].setdefault(str(killer["id"]), {})
        killer_subs.pop("skill", None)
        killer_subs["assassinate"] = {"target": entry["target"], "named": entry["named"], "reassigned": True,
                                      "seq": entry["seq"], "at": entry["at"]}
        events.append(event("reassigned", GM, country=country, killer=killer["id"], target=entry["target"]))


def uses(state, timing):
    """The night's unresolved skill uses of one timing class, in submission order."""
    found = []
    for key, subs in state["subs"].items():
        for kind, entry in subs.items():
            if "skill" in entry and entry["timing"] == timing and [int(key), kind] not in state["work"]["done"]:
                found.append((int(key), kind, entry))
    return sorted(found, key=lambda u: u[2]["seq"])


def _ask(state, events, ident, kind, entry, stage, extra=None):
    state["work"]["done"].append([ident, kind])
    skill = actions.find_skill(state, holder(slot(state, ident)), entry["skill"]) or {}
    about = {"stage": stage, "actor": ident, "character": holder(slot(state, ident)), "skill": entry["skill"],
             "targets": entry["targets"], "text": skill.get("text", ""), **(extra or {})}
    decisions.add(state, events, "skill", GM, about, ["effects"], skill.get("effects", []))


def ask_stage(stage):
    def step(state, events):
        for ident, kind, entry in uses(state, STAGE_TIMINGS[stage]):
            _ask(state, events, ident, kind, entry, stage)
    step.__name__ = stage
    return step


def revision(state, events):
    """Step 3's second half: once the GM has set the 预结算前 users' views, everyone may revise all
    but those actions until the window ends (the server's close), then legality runs again."""
    users = [ident for ident, _ in state["work"]["done"] if _timing(state, ident) == "预结算前"]
    if not users:
        return
    names = {e["skill"] for key, subs in state["subs"].items() for e in subs.values() if e.get("timing") == "预结算前"}
    length = LONG_REVISION if LONG_SKILL in names else REVISION
    state["revision"] = {"until": state["clock"] + length, "locked": sorted(set(users))}
    state["steps"].insert(0, "legality")
    events.append(event("revision_window", until=state["revision"]["until"]))


def _timing(state, ident):
    entry = state["subs"].get(str(ident), {}).get("skill")
    return entry and entry.get("timing")


# Ruling 58 (the rules' 结算前 ladder): passives triggered by an identification marked 结算前.
PASSIVE_RANK = 9


def _waiting_passives(state):
    """The night's 结算前-marked passives not yet resolved whose identification still stands (an
    earlier 结算前 outcome may have made the identifier's actions fail)."""
    return [(ident, kind, use) for ident, kind, use in state["work"]["passives"]
            if [ident, kind] not in state["work"]["done"] and "identify" in state["subs"].get(str(ident), {})]


def before(state, events):
    """Step 5: the 结算前 uses one at a time, the server proposing the next: an actor no unresolved
    结算前 use targets (零干扰), else the lowest rank (passives of 结算前 identifications: 9), then 拼点."""
    pending = sorted(uses(state, "结算前") + _waiting_passives(state), key=lambda u: u[2]["seq"])
    if not pending:
        return
    targeted = {t for _, _, e in pending for t in e["targets"]}

    def rank(use):
        if "trigger" in use[2]:
            return PASSIVE_RANK
        skill = actions.find_skill(state, holder(slot(state, use[0])), use[2]["skill"]) or {}
        return skill.get("rank", 8)

    free = [u for u in pending if u[0] not in targeted]
    if free:
        chosen = free[0]
    else:
        lowest = min(rank(p) for p in pending)
        chosen = luck.contest(state, [u for u in pending if rank(u) == lowest], lambda use: use[0], events)
    order = [chosen] + [u for u in pending if u is not chosen]
    extra = {"proposed_order": [[u[0], u[2]["skill"]] for u in order], "zero_interference": bool(free)}
    if "trigger" in chosen[2]:
        extra.update(trigger=chosen[2]["trigger"], passive=True)
    _ask(state, events, chosen[0], chosen[1], chosen[2], "before", extra)
    state["steps"].insert(0, "before")


def assassinations(state, events):
    """Ruling 22: each standing 刺杀 is death-level damage; on the assassin's own 君主 it does nothing,
    on another of its own country the death becomes a wound with 1/2."""
    for key, subs in state["subs"].items():
        entry = subs.get("assassinate")
        if not entry:
            continue
        killer = slot(state, int(key))
        target = slot(state, entry["target"])
        level = "death"
        if target["country"] == killer["country"]:
            if target["identity"] == "君主":
                events.append(event("no_effect", GM, actor=killer["id"], target=target["id"], reason="own_monarch"))
                continue
            # Ruling 30: the 1/2 is the 刺杀's half failure (or the target's half defence), so the
            # killer's 优判 or the target's 劣判 keeps the death, the reverse makes it a wound.
            if not luck.chance(state, events, killer["id"], [1, 2], "同国刺杀", against=target["id"]):
                level = "wound"
        state["work"]["damage"].append({"target": target["id"], "level": level, "source": killer["country"],
                                        "cause": "刺杀", "actor": killer["id"]})


def defences(state, events):
    """Stage 2: for a damaged target that has a possible defence — its own passive, a 结算时 skill
    aimed at it, another character's passive — the server lists its damage largest first and the
    defences in the rulings' order (本人主动 > 他人主动 > 本人被动 > 他人被动, several owners in one
    class ordered by 拼点), and the GM confirms which damage is defended (⏸)."""
    by_target = {}
    for index, hit in enumerate(state["work"]["damage"]):
        by_target.setdefault(hit["target"], []).append(index)
    passives = {s["id"]: [k["name"] for k in actions.skills_of(state, holder(s)) if k["timing"] == "被动"
                          and (s["status"] != "outside" or k.get("outside"))]
                for s in state["slots"] if in_play(s)}
    for target, indexes in by_target.items():
        active = [(int(k), e["skill"]) for k, subs in state["subs"].items() for e in subs.values()
                  if e.get("timing") == "结算时" and target in e["targets"]]
        others = [(i, n) for i, names in passives.items() if i != target for n in names]
        own = [(target, n) for n in passives.get(target, [])]
        if not (active or own or others):
            continue
        classes = (("本人主动", [a for a in active if a[0] == target]), ("他人主动", [a for a in active if a[0] != target]),
                   ("本人被动", own), ("他人被动", others))
        options = [{"order": name, "id": i, "skill": n} for name, members in classes
                   for i, n in _by_contest(state, events, members)]
        s = slot(state, target)
        ordered = sorted(indexes, key=lambda i: state["work"]["damage"][i]["level"] != "death")
        about = {"target": target, "character": holder(s),
                 "damage": [dict(state["work"]["damage"][i], index=i) for i in ordered], "defences": options}
        decisions.add(state, events, "defence", GM, about, ["defended"], [])


def _by_contest(state, events, members):
    """Defences of one class with several owners, in the order of successive 拼点 (ruling 28's last
    tie-break; 优判 first, 劣判 last); one owner's skills keep the data's order."""
    rest, out = list(members), []
    while len({i for i, _ in rest}) > 1:
        winner = luck.contest(state, sorted({i for i, _ in rest}), lambda i: i, events)
        out += [m for m in rest if m[0] == winner]
        rest = [m for m in rest if m[0] != winner]
    return out + rest


def apply_night(state, events):
    """Stage 3: wounds and deaths (deaths first), natural deaths due tonight, identification results."""
    queue = sorted((h for h in state["work"]["damage"] if not h.get("defended")),
                   key=lambda h: h["level"] != "death")
    for hit in queue:
        if in_play(slot(state, hit["target"])) and slot(state, hit["target"])["status"] != "outside":
            wounds.damage(state, events, hit["target"], hit["level"], hit["source"], cause=hit["cause"])
    for name, night in state["data"]["natural_deaths"].items():
        s = next((o for o in state["slots"] if holder(o) == name and in_play(o)), None)
        if s is not None and night == state["night"]:
            wounds.kill(state, events, s["id"], cause="自然死亡", natural=True)


STEPS = {"legality": legality, "double_kill_and_reassign": double_kill_and_reassign,
         "pre_settlement": ask_stage("pre_settlement"), "revision": revision, "global": ask_stage("global"),
         "before": before,
         "during": ask_stage("during"), "assassinations": assassinations, "defences": defences,
         "apply_night": apply_night, "after": ask_stage("after")}
ORDER = ["legality", "double_kill_and_reassign", "identifications", "pre_settlement", "revision", "global", "before",
         "during",
         "assassinations", "defences", "apply_night", "after", "end_check"]
