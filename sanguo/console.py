"""The 天庭 console: what its game master (or co-GM) reads of the running phase and how its forms
become the engine's GM commands.

Everything here is read from the engine's ``gm`` view (``view["internal"]`` is the whole state, which
only that audience gets) or from the engine itself: the queue's "void at the close" is the engine's
own close run on a copy, a preview is the command applied to a copy and viewed as its audience. So
the console never decides a rule; it shows the engine's proposal and sends the GM's answer.
"""
import json
from datetime import datetime, timezone

from django.utils.translation import gettext as _, gettext_lazy

from game.errors import ServiceError
from game.games.three_kingdoms import engine

from . import services, texts
from .data import names as _names
from .models import Event
from .services import clock

# Ruling 28's stages, as the rules name them.
STAGES = {"immediate": "立刻", "pre_settlement": "预结算前", "global": "全局", "before": "结算前",
          "during": "结算时", "after": "结算后", "passive": "被动"}
# The timing class of a submission that is not a skill (a skill carries its own).
KIND_TIMINGS = {"assassinate": "夜晚行动", "identify": "夜晚行动", "reassign": "夜晚行动", "request": "夜晚行动",
                "vote": "白天行动投票", "suicide": "夜晚行动"}
COUNTRIES = ("魏", "蜀", "吴")
# The words of the engine's answers and damage levels, as the console shows them.
WORDS = {"approve": gettext_lazy("approve"), "edit": gettext_lazy("edit"), "reject": gettext_lazy("reject"),
         "stands": gettext_lazy("stands"), "defended": gettext_lazy("defended"),
         "death": gettext_lazy("death"), "wound": gettext_lazy("wound")}
# The statuses of a character still in play (the engine's ``IN_PLAY``): any other has left.
IN_PLAY = ("normal", "wounded", "outside")


def _holder(s):
    return s["chain"][s["holder"]]


def _moment(seconds):
    return None if seconds is None else datetime.fromtimestamp(seconds, tz=timezone.utc)


def _void_at_close(state):
    """{(ID, action): reason} of the submissions the engine's close would void now: its legality
    step run on a copy, at the deadline (nothing is stored)."""
    if state["phase"] not in ("night_action", "day_wound", "day_vote") or not state.get("deadline"):
        return {}
    revision = state.get("revision")
    at = max(state["clock"], revision["until"] if revision else state["deadline"])
    try:
        _, events = engine.apply(state, "server", {"close": {}, "at": at})
    except engine.IllegalCommand:
        return {}
    by_name = {_holder(s): s["id"] for s in state["slots"]}
    void = {}
    for e in events:
        if e.get("type") == "void":
            for action in e["action"] if isinstance(e["action"], list) else [e["action"]]:
                void[(by_name.get(e["character"]), action)] = e["reason"]
    return void


def queue(state):
    """The phase's submissions by seat and ID, oldest first: time, timing class, whether the close
    would void it (and why), and whether its owner may still change it."""
    void = _void_at_close(state)
    locked_ids = set((state.get("revision") or {}).get("locked", []))
    rows = []
    for key, subs in state["subs"].items():
        s = state["slots"][int(key) - 1]
        for kind, entry in subs.items():
            # A character's identifications are kept by their index in its data, each a submission.
            entries = [dict(e, index=int(i)) for i, e in entry.items()] if kind == "identify" else [entry]
            for one in entries:
                timing = one.get("timing") or KIND_TIMINGS.get(kind, "")
                locked = timing == "立刻" or int(key) in locked_ids or bool(one.get("by_gm"))
                label = texts.queued(kind, one)
                rows.append({"seat": s["controller"], "id": s["id"], "character": _holder(s), "kind": kind,
                             "timing": timing, "at": _moment(one.get("at")), "seq": one.get("seq", 0),
                             "void": void.get((s["id"], kind)), "locked": locked, "label": label})
    return sorted(rows, key=lambda r: (r["seq"], r["id"]))


def _effect_lines(effects):
    return [", ".join(f"{k} {json.dumps(v, ensure_ascii=False)}" for k, v in e.items()) for e in effects]


def decisions(state):
    """The GM's pending decisions in the order the engine queued them (the rulings' order), each
    with what the console's form needs and the engine's proposal pre-selected."""
    out = []
    for d in state["pending"]:
        if d["for"] != "gm":
            continue
        about = d["about"]
        item = {"key": d["key"], "kind": d["kind"], "about": about}
        if d["kind"] == "skill":
            item.update(stage=STAGES.get(about["stage"], about["stage"]),
                        effects=json.dumps(d["default"], ensure_ascii=False),
                        effect_lines=_effect_lines(d["default"]),
                        order=about.get("proposed_order", []))
        elif d["kind"] == "defence":
            item.update(damage=[dict(h, level=WORDS[h["level"]]) for h in about["damage"]],
                        defences=about["defences"])
        elif d["kind"] in ("vote_defence", "last_words_review"):
            item.update(options=[(o, WORDS.get(o, o)) for o in d["options"]], default=d["default"])
        out.append(item)
    return out


def ledger(state):
    """The damage and defences per target of the night being resolved (its stage-3 queue)."""
    if state["phase"] not in ("night_resolution", "night_feedback") or not state.get("work"):
        return []
    asked = {d["about"]["target"]: d["about"]["defences"] for d in state["pending"] if d["kind"] == "defence"}
    targets = {}
    for index, hit in enumerate(state["work"]["damage"]):
        shown = dict(hit, index=index, level=WORDS[hit["level"]])
        targets.setdefault(hit["target"], []).append(shown)
    return [{"target": t, "character": _holder(state["slots"][t - 1]), "hits": hits, "defences": asked.get(t, [])}
            for t, hits in sorted(targets.items())]


def rolls(row):
    """The server's rolls since the running phase opened, as they were made (the GM's audience)."""
    made = []
    for events in Event.objects.filter(game=row, version__gte=row.phase_opened).order_by("version") \
            .values_list("events", flat=True):
        made += [texts.roll(e) for e in events if e.get("type") == "roll"]
    return made


def context(row, view):
    state = view["internal"]
    return {"queue": queue(state), "decisions": decisions(state), "ledger": ledger(state), "rolls": rolls(row),
            "ids": range(1, len(state["slots"]) + 1), "countries": COUNTRIES,
            "effect_rows": range(EFFECT_ROWS), "effect_kinds": ROW_EFFECTS, "action_kinds": ACTION_KINDS,
            "durations": [(phase, texts.phase(phase), state["data"]["durations"].get(phase, 0) // 60)
                          for phase in services.PHASES],
            "report": state["night_report"]}


def _effects(text):
    try:
        return json.loads(text)
    except ValueError:
        raise ServiceError("bad_command", _("The effects are not valid JSON.")) from None


def _int(text, message):
    try:
        return int(text)
    except (TypeError, ValueError):
        raise ServiceError("bad_command", message) from None


def resolve_command(post):
    """A decision's form as the engine's ``resolve``; what the engine checks it checks."""
    key = _int(post.get("decision"), _("Choose a decision."))
    body = {"decision": key}
    if "effects" in post:
        body["effects"] = [] if post.get("none") else _effects(post.get("effects", ""))
    if "defence" in post:
        body["defended"] = [_int(i, _("Choose damage to defend.")) for i in post.getlist("defended")]
    if "choice" in post:
        body["choice"] = post.get("choice")
        if body["choice"] == "edit":
            body["text"] = post.get("text", "")
    if post.get("reason", "").strip():
        body["reason"] = post["reason"].strip()
    return {"resolve": body}


def feedback_command(post):
    return {"feedback": {"id": _int(post.get("id"), _("Choose an ID.")), "text": post.get("text", "")}}


def durations(post):
    """Phase lengths from ``minutes_<phase>`` fields (empty: unchanged), in seconds, within the
    site's bounds (``services.check_durations``)."""
    out = {}
    for phase in services.PHASES:
        minutes = post.get(f"minutes_{phase}", "").strip()
        if minutes:
            try:
                out[phase] = round(float(minutes) * 60)
            except ValueError:
                raise ServiceError("bad_durations", _("Each phase lasts from one minute to 14 days.")) from None
    return services.check_durations(out)


def _join(post):
    """The join part: an 在野's ID and the country it joins, or ``none`` to cancel its joins."""
    country = post.get("join_country", "")
    if country not in (*COUNTRIES, "none"):
        raise ServiceError("bad_command", _("Choose the country it joins, or none to cancel its joins."))
    return {"id": _int(post["join_id"], _("Choose an ID.")), "country": None if country == "none" else country}


def _optional_id(post, field):
    return _int(post[field], _("Choose an ID.")) if post.get(field) else None


def _id_list(post, field):
    return [_int(i, _("Give the IDs as numbers, separated by commas."))
            for i in post.get(field, "").replace("，", ",").split(",") if i.strip()]


def _roll(post):
    """The rolls part: the server's next roll of a kind, fixed to an outcome of that kind's shape."""
    kind, outcome = post.get("roll_kind", ""), post.get("roll_outcome", "").strip()
    fixed = {"roll": kind}
    if kind in ("伤判", "chance"):
        fixed["id"] = _int(post.get("roll_id"), _("Choose the ID the roll is for."))
    if post.get("roll_label", "").strip():
        fixed["label"] = post["roll_label"].strip()
    if kind == "伤判":
        fixed["outcome"] = outcome
    elif kind == "chance":
        if outcome not in ("favourable", "unfavourable"):
            raise ServiceError("bad_command", _("A judgement is fixed as favourable or unfavourable."))
        fixed["outcome"] = outcome == "favourable"
    elif kind == "pick":
        fixed["outcome"] = _id_list(post, "roll_outcome")
    elif kind == "拼点":
        fixed["outcome"] = _int(outcome, _("Give the winner's ID as a number."))
    else:
        raise ServiceError("bad_command", _("Choose the kind of roll."))
    return [fixed]


# Effects edited as rows (a kind, its IDs, its text), as many as the form shows; the nested
# judgements (chance, pick) stay in the JSON list beside them.
EFFECT_ROWS = 3
ID_EFFECTS = ("wound", "kill", "leave", "heal", "outside", "back", "fail", "revive")
ROW_EFFECTS = (*ID_EFFECTS, "recognise", "feedback", "announce", "identity", "luck")


def effect_rows(post):
    """The effects of the form's rows (``effect_kind_N``, ``effect_id_N``, ``effect_other_N``,
    ``effect_text_N``, ``effect_mutual_N``) as the engine's list; an empty kind is no row."""
    out = []
    for n in range(EFFECT_ROWS):
        kind = post.get(f"effect_kind_{n}", "")
        if not kind:
            continue
        words = {"row": n + 1}
        if kind not in ROW_EFFECTS:
            raise ServiceError("bad_command", _("Effect %(row)s: choose its kind.") % words)
        text = post.get(f"effect_text_{n}", "").strip()
        if kind == "announce":
            out.append({"announce": text})
            continue
        ident = _int(post.get(f"effect_id_{n}"), _("Effect %(row)s: choose its ID.") % words)
        if kind in ID_EFFECTS:
            out.append({kind: ident})
        elif kind == "recognise":
            known = _int(post.get(f"effect_other_{n}"), _("Effect %(row)s: choose the ID recognised.") % words)
            out.append({"recognise": [ident, known], "mutual": post.get(f"effect_mutual_{n}") == "on"})
        elif kind == "feedback":
            out.append({"feedback": ident, "text": text})
        else:
            out.append({kind: [ident, text or None]})
    return out


ACTION_KINDS = ("assassinate", "skill", "identify", "reassign", "request", "vote")


def _action(post):
    """The action part: an ID's action or ballot of a kind rewritten from the fields that kind
    uses (IDs only), or withdrawn."""
    kind = post.get("action_kind", "")
    if kind not in ACTION_KINDS:
        raise ServiceError("bad_command", _("Choose the kind of action."))
    body = {"id": _int(post.get("action_id"), _("Choose an ID.")), "kind": kind}
    index = _int(post.get("action_index") or "0", _("Give the identification's number as a whole number."))
    if post.get("action_withdraw"):
        return dict(body, set=None, **({"index": index} if kind == "identify" else {}))
    value = {
        "assassinate": lambda: {"target": _optional_id(post, "action_target")},
        "vote": lambda: {"target": _optional_id(post, "action_target"), "follow": post.get("action_follow") or None},
        "skill": lambda: {"skill": post.get("action_skill", "").strip(), "targets": _id_list(post, "action_targets")},
        "identify": lambda: {"index": index, "targets": _id_list(post, "action_targets"),
                             "names": _names(post.get("action_names", ""))},
        "reassign": lambda: {"killer": _optional_id(post, "action_killer"),
                             "target": _optional_id(post, "action_target")},
        "request": lambda: {"country": post.get("action_country", "")},
    }[kind]()
    return dict(body, set=value)


def override_command(post):
    """An override from its form: a reason (the engine requires one) and any of dropping a pending
    decision, effects, a new deadline in minutes from now, phase lengths from the next phase, an
    在野's join, a fixed roll and an ID's action rewritten or withdrawn. The engine checks every part before any applies."""
    body = {"reason": post.get("reason", "")}
    if post.get("drop"):
        body["drop"] = _int(post["drop"], _("Choose a decision."))
    listed = _effects(post["effects"]) if post.get("effects", "").strip() else []
    # Anything but a list is the engine's to refuse, with its message.
    effects = effect_rows(post) + listed if isinstance(listed, list) else listed
    if effects:
        body["effects"] = effects
    if post.get("minutes", "").strip():
        body["deadline"] = clock() + 60 * _int(post["minutes"], _("Give the minutes as a whole number."))
    lengths = durations(post)
    if lengths:
        body["durations"] = lengths
    if post.get("join_id"):
        body["join"] = _join(post)
    if post.get("roll_kind"):
        body["rolls"] = _roll(post)
    if post.get("action_id"):
        body["action"] = _action(post)
    return {"override": body}


def zhao_yun_pool_command(post):
    """R25: 残兵之首's draws inside or outside one country's 号票s, or uniform again."""
    country = post.get("country", "")
    if country not in (*COUNTRIES, ""):
        raise ServiceError("bad_command", _("Choose a country, or none for uniform draws."))
    if not country:
        return {"zhao_yun_pool": {"country": None}}
    return {"zhao_yun_pool": {"country": country, "inside": post.get("inside") != "outside"}}


FORMS = {
    "resolve": resolve_command,
    "feedback": feedback_command,
    "announce": lambda post: {"announce": {"text": post.get("text", "")}},
    "advance": lambda post: {"advance": {"reason": post.get("reason", "")}},
    "alliance": lambda post: {"alliance": {"countries": [post.get("first"), post.get("second")],
                                           "on": post.get("on") != "off"}},
    "draw": lambda post: {"draw": {"reason": post.get("reason", "")}},
    "override": override_command,
    "zhao_yun_pool": zhao_yun_pool_command,
}


def preview(state, command, at):
    """What the command's audience will read, the command applied to a copy of the state (nothing
    stored): for feedback the ID's seat's new feedback (none for an ID no person holds), for an
    announcement the next announcement as everyone will read it — the server's facts and the texts."""
    try:
        after, _events = engine.apply(state, "gm", dict(command, at=at))
    except engine.IllegalCommand as refused:
        raise ServiceError(refused.code, refused.message, illegal=True) from None
    if "feedback" in command:
        seat = state["slots"][command["feedback"]["id"] - 1]["controller"]
        if seat is None:
            return {"audience": None, "feedback": []}
        before = len(engine.view(state, seat)["feedback"])
        return {"audience": seat, "feedback": engine.view(after, seat)["feedback"][before:]}
    report = after["night_report"]
    deaths = [{"id": d["id"], "left": after["slots"][d["id"] - 1]["status"] not in IN_PLAY} for d in report["deaths"]]
    return {"audience": "spectator", "deaths": deaths, "wounded": sorted(set(report["wounds"])),
            "last_words": report["last_words"], "texts": report["texts"]}
