"""The 天庭 console: what its game master (or co-GM) reads of the running phase and how its forms
become the engine's GM commands.

Everything here is read from the engine's ``gm`` view (``view["internal"]`` is the whole state, which
only that audience gets) or from the engine itself: the queue's "void at the close" is the engine's
own close run on a copy, a preview is the command applied to a copy and viewed as its audience. So
the console never decides a rule; it shows the engine's proposal and sends the GM's answer.
"""
import json
import re
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
            rows = proposal_rows(state, d)
            item.update(stage=STAGES.get(about["stage"], about["stage"]),
                        effects="" if rows is not None else json.dumps(d["default"], ensure_ascii=False),
                        rows=blank_rows(rows or [], DECISION_BLANK_ROWS), in_rows=rows is not None,
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
            "effect_rows": blank_rows([], EFFECT_ROWS), "effect_kinds": ROW_EFFECTS, "action_kinds": ACTION_KINDS,
            "action_rows": range(ACTION_ROWS), "roll_rows": range(ROLL_ROWS),
            "durations": [(phase, texts.phase(phase), state["data"]["durations"].get(phase, 0) // 60)
                          for phase in services.PHASES],
            "report": state["night_report"]}


def _effects(text):
    try:
        return json.loads(text)
    except ValueError:
        raise ServiceError("bad_command", _("The effects are not valid JSON.")) from None


def effect_list(post, prefix="effect"):
    """A form's effects: its rows (``effect_rows``), then the engine's JSON list of its ``effects``
    box (empty: none) for what rows do not hold. A box holding anything but a list is sent as it
    is, for the engine to refuse with its message."""
    listed = _effects(post["effects"]) if post.get("effects", "").strip() else []
    return effect_rows(post, prefix) + listed if isinstance(listed, list) else listed


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
        body["effects"] = [] if post.get("none") else effect_list(post)
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


def _optional_id(text):
    return _int(text, _("Choose an ID.")) if text else None


def _id_list(text):
    return [_int(i, _("Give the IDs as numbers, separated by commas."))
            for i in text.replace("，", ",").split(",") if i.strip()]


def _rows(post, field):
    """The numbers N of the form's ``<field>_N`` fields, in the page's order: the rows it posted,
    blank ones too, so the Nth of them is the page's Nth row however the script numbered those it added."""
    # Numbers as the page writes them (no leading zero), so each row is one number.
    pattern = re.compile(rf"{re.escape(field)}_(0|[1-9][0-9]{{0,3}})")
    return sorted(int(m[1]) for m in map(pattern.fullmatch, post) if m)


def _filled_rows(post, name, key, part):
    """``part(fields)`` of each of the form's ``name`` rows whose ``key`` field is filled (an empty
    one is no row), in the page's order; a refusal's message names the row by its place."""
    out = []
    for row, n in enumerate(_rows(post, f"{name}_{key}"), 1):
        field = _fields(post, name, n)
        if not field(key):
            continue
        try:
            out.append(part(field))
        except ServiceError as refused:
            words = {"row": row, "problem": refused.message}
            message = _("Action %(row)s: %(problem)s") if name == "action" else _("Roll %(row)s: %(problem)s")
            raise ServiceError(refused.code, message % words) from None
    return out


def _roll(field):
    """A roll row: the server's next roll of a kind, fixed to an outcome of that kind's shape."""
    kind, outcome = field("kind"), field("outcome").strip()
    fixed = {"roll": kind}
    if kind in ("伤判", "chance"):
        fixed["id"] = _int(field("id"), _("Choose the ID the roll is for."))
    if field("label").strip():
        fixed["label"] = field("label").strip()
    if kind == "伤判":
        fixed["outcome"] = outcome
    elif kind == "chance":
        if outcome not in ("favourable", "unfavourable"):
            raise ServiceError("bad_command", _("A judgement is fixed as favourable or unfavourable."))
        fixed["outcome"] = outcome == "favourable"
    elif kind == "pick":
        fixed["outcome"] = _id_list(outcome)
    elif kind == "拼点":
        fixed["outcome"] = _int(outcome, _("Give the winner's ID as a number."))
    else:
        raise ServiceError("bad_command", _("Choose the kind of roll."))
    return fixed


def _fields(post, name, n):
    """The fields of row ``n`` of the form's ``name`` rows, by their part's name."""
    return lambda part: post.get(f"{name}_{part}_{n}", "")


def roll_rows(post):
    """The rolls of the form's rows (``roll_kind_N``, ``roll_id_N``, ``roll_label_N``,
    ``roll_outcome_N``) in their order; an empty kind is no row."""
    return _filled_rows(post, "roll", "kind", _roll)


# The blank rows a form shows of each kind (a script adds more; a form without it posts these).
EFFECT_ROWS = 3
DECISION_BLANK_ROWS = 1
ACTION_ROWS = 2
ROLL_ROWS = 2
# Effects edited as rows: a kind, its IDs, its text. The nested judgements (chance, pick) stay in
# the JSON list beside them.
ID_EFFECTS = ("wound", "kill", "leave", "heal", "outside", "back", "fail", "revive")
ROW_EFFECTS = (*ID_EFFECTS, "recognise", "feedback", "announce", "identity", "luck")
BLANK_ROW = {"kind": "", "id": None, "other": None, "mutual": False, "text": ""}


def effect_rows(post, prefix="effect"):
    """The effects of the form's rows (``<prefix>_kind_N``, ``_id_N``, ``_other_N``, ``_text_N``,
    ``_mutual_N``), as many as it posted, in their order, as the engine's list; an empty kind is no
    row. A refusal names the row by its place on the page."""
    out = []
    for row, n in enumerate(_rows(post, f"{prefix}_kind"), 1):
        field = _fields(post, prefix, n)
        kind = field("kind")
        if not kind:
            continue
        words = {"row": row}
        if kind not in ROW_EFFECTS:
            raise ServiceError("bad_command", _("Effect %(row)s: choose its kind.") % words)
        text = field("text").strip()
        if kind == "announce":
            out.append({"announce": text})
            continue
        ident = _int(field("id"), _("Effect %(row)s: choose its ID.") % words)
        if kind in ID_EFFECTS:
            out.append({kind: ident})
        elif kind == "recognise":
            known = _int(field("other"), _("Effect %(row)s: choose the ID recognised.") % words)
            out.append({"recognise": [ident, known], "mutual": field("mutual") == "on"})
        elif kind == "feedback":
            out.append({"feedback": ident, "text": text})
        else:
            out.append({kind: [ident, text or None]})
    return out


def _row_of(effect, count):
    """The row showing ``effect`` (an engine-checked one), or None if no row posts it back exactly:
    a nested judgement, an ID the row's menu does not offer, a text a one-line box would change."""
    kind = next((k for k in effect if k in ROW_EFFECTS), None)
    value = effect.get(kind)
    if kind is None:
        return None
    if kind == "announce":
        row = dict(BLANK_ROW, kind=kind, text=value)
    elif kind == "recognise":
        row = dict(BLANK_ROW, kind=kind, id=value[0], other=value[1], mutual=effect.get("mutual") is True)
    elif kind == "feedback":
        row = dict(BLANK_ROW, kind=kind, id=value, text=effect.get("text"))
    elif kind in ID_EFFECTS:
        row = dict(BLANK_ROW, kind=kind, id=value)
    else:
        row = dict(BLANK_ROW, kind=kind, id=value[0], text=value[1] or "")
    offered = range(1, count + 1)
    if (row["id"] is not None and row["id"] not in offered) or (row["other"] is not None and row["other"] not in offered) \
            or not isinstance(row["text"], str) or "\n" in row["text"] or "\r" in row["text"]:
        return None
    posted = {"effect_kind_0": kind, "effect_id_0": str(row["id"] or ""), "effect_other_0": str(row["other"] or ""),
              "effect_text_0": row["text"], "effect_mutual_0": "on" if row["mutual"] else ""}
    return row if effect_rows(posted) == [effect] else None


def proposal_rows(state, decision):
    """A skill decision's proposal as rows, or None if rows cannot hold all of it (then its JSON
    stays whole in the form's box: never a part silently dropped). The proposal is read as the
    engine would apply it — its answer run on a copy, placeholders (``actor``, ``target``) made IDs —
    so the rows post back exactly what the default answer applies; a proposal the engine refuses
    stays JSON, for its message to come when it is sent."""
    try:
        _, events = engine.apply(state, "gm", {"resolve": {"decision": decision["key"]}, "at": state["clock"]})
    except engine.IllegalCommand:
        return None
    checked = next(e["effects"] for e in events if e.get("type") == "resolved")
    rows = [_row_of(effect, len(state["slots"])) for effect in checked]
    return None if None in rows else rows


def blank_rows(rows, blank):
    """``rows`` and ``blank`` empty rows after them, each with its number in the form."""
    return [dict(row, n=n) for n, row in enumerate([*rows, *[BLANK_ROW] * blank])]


ACTION_KINDS = ("assassinate", "skill", "identify", "reassign", "request", "vote")


def _action(field):
    """An action row: an ID's action or ballot of a kind rewritten from the fields that kind uses
    (IDs only), or withdrawn."""
    kind = field("kind")
    if kind not in ACTION_KINDS:
        raise ServiceError("bad_command", _("Choose the kind of action."))
    body = {"id": _int(field("id"), _("Choose an ID.")), "kind": kind}
    index = _int(field("index") or "0", _("Give the identification's number as a whole number."))
    if field("withdraw"):
        return dict(body, set=None, **({"index": index} if kind == "identify" else {}))
    value = {
        "assassinate": lambda: {"target": _optional_id(field("target"))},
        "vote": lambda: {"target": _optional_id(field("target")), "follow": field("follow") or None},
        "skill": lambda: {"skill": field("skill").strip(), "targets": _id_list(field("targets"))},
        "identify": lambda: {"index": index, "targets": _id_list(field("targets")), "names": _names(field("names"))},
        "reassign": lambda: {"killer": _optional_id(field("killer")), "target": _optional_id(field("target"))},
        "request": lambda: {"country": field("country")},
    }[kind]()
    return dict(body, set=value)


def action_rows(post):
    """The actions of the form's rows (``action_id_N``, ``action_kind_N`` and the fields the kind
    uses, ``action_target_N`` …), in their order; a row without an ID is no row."""
    return _filled_rows(post, "action", "id", _action)


def override_command(post):
    """An override from its form: a reason (the engine requires one) and any of dropping a pending
    decision, effects, a new deadline in minutes from now, phase lengths from the next phase, an
    在野's join, fixed rolls and IDs' actions rewritten or withdrawn, each of the last three as many
    as the form's rows. The engine checks every part before any applies."""
    body = {"reason": post.get("reason", "")}
    if post.get("drop"):
        body["drop"] = _int(post["drop"], _("Choose a decision."))
    effects = effect_list(post)
    if effects:
        body["effects"] = effects
    if post.get("minutes", "").strip():
        body["deadline"] = clock() + 60 * _int(post["minutes"], _("Give the minutes as a whole number."))
    lengths = durations(post)
    if lengths:
        body["durations"] = lengths
    if post.get("join_id"):
        body["join"] = _join(post)
    rolls, actions = roll_rows(post), action_rows(post)
    if rolls:
        body["rolls"] = rolls
    if actions:
        body["action"] = actions
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
