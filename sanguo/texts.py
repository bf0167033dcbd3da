"""The 三国 engine's events, decisions, ballots and submissions as sentences for the pages, in the
reader's language. The engine speaks in fields; a page must never show a raw dict, so every kind
the engine emits to a seat or the public has its sentence here, and any other kind (the game
master's own, or one added to the engine later) still reads as a line of words, not as data. The
game's own terms (刺杀, 指认, 号票 …) stay in Chinese, as the rules name them."""
from django.utils.translation import gettext as _

PHASES = {
    "setup": lambda: _("setting up"),
    "night_action": lambda: _("night actions (夜晚行动)"),
    "night_resolution": lambda: _("night resolution (夜晚判定结算)"),
    "night_feedback": lambda: _("night feedback (夜晚反馈公告)"),
    "day_wound": lambda: _("wound checks (白天受伤判定)"),
    "day_vote": lambda: _("day actions and votes (白天行动投票)"),
    "day_feedback": lambda: _("day feedback (白天反馈公告)"),
    "over": lambda: _("over"),
}
ACTIONS = {
    "assassinate": "刺杀", "identify": "指认", "reassign": "改刀", "request": "主动投奔", "suicide": "自杀",
    "vote": "投票", "last_words": "遗言", "skill": "技能",
}
STATUSES = {
    "wounded": lambda: _("is wounded"), "healed": lambda: _("is healed"), "dead": lambda: _("died"),
    "outside": lambda: _("is outside the game (游戏外)"), "back": lambda: _("is back in the game"),
    "left": lambda: _("left the game"),
}
# The outcomes of a 伤判 and of a vote, as the engine names them.
OUTCOMES = {
    "healed": lambda: _("healed"), "died": lambda: _("died"), "stays": lambda: _("stays wounded"),
    "wound": lambda: _("wounded"), "death": lambda: _("died"),
}


def outcome(word):
    return OUTCOMES[word]() if word in OUTCOMES else str(word)


def phase(name):
    return PHASES[name]() if name in PHASES else str(name)


def phase_title(night, name):
    """The phase's heading: night N's phases, then day N's (ruling 12)."""
    words = {"night": night, "phase": phase(name)}
    return (_("Day %(night)s: %(phase)s") if str(name).startswith("day_") else _("Night %(night)s: %(phase)s")) % words


def _id(ident):
    return _("ID %(id)s") % {"id": ident}


def _ids(idents):
    return ", ".join(_id(i) for i in idents) if idents else _("no ID")


def _target(value):
    """A target as the seat gave it: an ID, or the character it named (ruling 10)."""
    return _id(value) if isinstance(value, int) else str(value)


def flat(value):
    """Any value as words: the generic line's parts, never a Python literal."""
    if isinstance(value, dict):
        return "; ".join(f"{key} {flat(v)}" for key, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(flat(v) for v in value) or "—"
    if value is None:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def _generic(kind, fields):
    details = flat({k: v for k, v in fields.items() if k not in ("type", "to")})
    return f"{kind}: {details}" if details else str(kind)


# ---- actions and submissions -----------------------------------------------------------------

def action_title(kind, body):
    """A form's heading: the action (and the skill's or the identification's name)."""
    if kind == "skill":
        return _("Skill %(skill)s") % {"skill": body["skill"]}
    if kind == "identify":
        return _("指认 (identification %(number)s)") % {"number": body["index"] + 1}
    if kind == "vote":
        return _("Vote (投票)")
    if kind == "answer":
        return _("Your answer")
    if kind == "last_words":
        return _("Your 遗言 (last words)")
    if kind == "peace":
        return _("Ask for 议和 (peace)")
    return ACTIONS.get(kind, kind)


def choice_label(kind, body):
    """One option of a one-choice form: a ballot, a country to ask, an answer."""
    if kind == "vote":
        if body.get("scatter"):
            return _("散票 (an invalid ballot)")
        follow = body.get("follow")
        target = _target(body["target"])
        if follow == "call":
            return _("%(target)s, following a 号票") % {"target": target}
        if follow == "group":
            return _("%(target)s, following your group's call") % {"target": target}
        return target
    if kind == "request":
        return _("Ask %(country)s to take you in") % {"country": body["country"]}
    if kind == "answer":
        return {"yes": _("Yes"), "no": _("No")}.get(body["choice"], body["choice"])
    return flat(body)


def identification(spec):
    """What an identification of the game data does, in a sentence."""
    kind, count = spec.get("kind"), spec.get("count", 1)
    if kind == "招揽":
        return _("招揽: name up to %(count)s IDs and one 在野 character; if one of them holds it, they are asked "
                 "to join your country.") % {"count": count}
    if kind == "评价":
        return _("评价: name up to %(count)s IDs; you learn whether each is %(word)s.") % {
            "count": count, "word": spec.get("evaluation", "")}
    names = "、".join(spec.get("names", [])) or "—"
    if kind == "不反馈":
        return _("不反馈: name up to %(count)s IDs looking for %(names)s; you are told nothing.") % {
            "count": count, "names": names}
    return _("%(kind)s: name up to %(count)s IDs; you learn which of them hold %(names)s.") % {
        "kind": kind, "count": count, "names": names}


def _named(entry):
    """An identification's targets as the seat gave them, and the 在野 it recruits if any."""
    named = [n or t for t, n in zip(entry.get("targets", []), entry.get("named", []))]
    words = ", ".join(_target(t) for t in named)
    return words + (" · " + "、".join(entry["names"]) if entry.get("names") else "")


def queued(kind, entry):
    """A submission in the 天庭 console's queue, in the player's page's words."""
    if kind == "vote":
        return _("投票: %(ballot)s") % {"ballot": choice_label("vote", entry)}
    if kind == "identify":
        return submission({"action": "identify", str(entry["index"]): entry})
    return submission(dict(entry, action=kind))


def submission(sub):
    """One of the seat's own submissions this phase, as a sentence."""
    action = sub.get("action", "")
    if action == "identify":
        parts = [_("identification %(number)s on %(targets)s") % {"number": int(index) + 1, "targets": _named(entry)}
                 for index, entry in sorted((k, v) for k, v in sub.items() if k.isdigit())]
        return _("指认: %(parts)s") % {"parts": "; ".join(parts)}
    if action == "skill" or action.startswith("extra:"):
        named = [n or t for t, n in zip(sub.get("targets", []), sub.get("named", []))]
        words = _("Skill %(skill)s (%(timing)s)") % {"skill": sub.get("skill", ""), "timing": sub.get("timing", "")}
        return words + (_(" on %(targets)s") % {"targets": ", ".join(_target(t) for t in named)} if named else "")
    if action in ("assassinate", "reassign"):
        target = sub.get("named") or sub.get("target")
        words = _("%(action)s on %(target)s") % {"action": ACTIONS[action], "target": _target(target)}
        return words + (_(" by %(killer)s") % {"killer": sub["killer_name"]} if sub.get("killer_name") else "")
    if action == "request":
        return _("主动投奔: asking %(country)s") % {"country": sub.get("country", "")}
    return _generic(ACTIONS.get(action, action), {k: v for k, v in sub.items()
                                                 if k not in ("character", "action", "seq", "at")})


# ---- decisions -------------------------------------------------------------------------------

def decision(d):
    """A choice asked of the seat, with its options named."""
    kind, about = d.get("kind"), d.get("about") or {}
    if kind == "offer":
        return _("%(country)s asks %(character)s to join it (%(via)s): yes or no. Silence is no.") % {
            "country": about.get("country", ""), "character": about.get("character", ""), "via": about.get("via", "")}
    if kind == "request":
        return _("%(character)s asks to join %(country)s (主动投奔): yes or no. Silence is no.") % {
            "character": about.get("character", ""), "country": about.get("country", "")}
    if kind == "regent":
        return _("Name a character of %(country)s in play as 代理君主 (acting monarch).") % {
            "country": about.get("country", "")}
    if kind == "last_words":
        return _("%(character)s died: you may leave 遗言 (a declared country, a 号票 on one ID, a text), which "
                 "the game master reviews.") % {"character": about.get("character", "")}
    return _generic(kind, about)


# ---- events ----------------------------------------------------------------------------------

def _submitted(e):
    detail = e.get("detail") or {}
    action = e.get("action", "")
    if action == "identify":
        words = _("指认 on %(targets)s") % {"targets": _named(detail)}
    elif action == "vote":
        words = choice_label("vote", detail)
    elif action == "last_words":
        words = _("遗言: %(text)s") % {"text": detail.get("text", "")}
    elif action == "suicide":
        words = "自杀"
    else:
        words = submission(dict(detail, action=action))
    return _("You submitted for %(character)s: %(words)s.") % {"character": e.get("character", ""), "words": words}


def _announcement(e):
    return " ".join(announcement(e))


def _ballots(e):
    return _("Vote %(vote)s's ballots: %(ballots)s.") % {"vote": e.get("vote"), "ballots": ballot_list(e["ballots"])}


def roll(e):
    """One of the server's rolls (the game master's to see) as a sentence: a 伤判, a judgement, a
    draw or a 拼点, and whether luck or the game master decided it."""
    label = e.get("kind", "")
    if "odds" in e:
        k, n = e["odds"]
        words = (_("%(label)s: a %(k)s-in-%(n)s judgement for %(id)s against %(against)s") if e.get("against") else
                 _("%(label)s: a %(k)s-in-%(n)s judgement for %(id)s")) % {
            "label": label, "k": k, "n": n, "id": _id(e["id"]), "against": _id(e.get("against"))}
        words += ": " + (_("favourable") if e["favourable"] else _("unfavourable"))
    elif "among" in e:
        words = (_("%(label)s: %(count)s drawn among %(among)s for protection: %(picked)s") if e["good"] else
                 _("%(label)s: %(count)s drawn among %(among)s for harm: %(picked)s")) % {
            "label": label, "count": e["count"], "among": _ids(e["among"]), "picked": _ids(e["picked"])}
    elif "ids" in e:
        words = _("拼点 among %(ids)s: %(winner)s wins") % {"ids": _ids(e["ids"]), "winner": _id(e["winner"])}
    else:
        words = _("伤判 for %(id)s (roll %(roll)s): %(outcome)s") % {
            "id": _id(e["id"]), "roll": e.get("roll"), "outcome": outcome(e["outcome"])}
    if e.get("fixed_by_gm"):
        return words + _(" (fixed by the game master)")
    return words + (_(" (decided by luck)") if e.get("decided_by_luck") else "")


EVENTS = {
    "submitted": _submitted,
    "roll": roll,
    "cancelled": lambda e: _("You withdrew %(character)s's %(action)s.") % {
        "character": e.get("character", ""), "action": ACTIONS.get(e.get("action"), e.get("action"))},
    "phase": lambda e: _("%(title)s began.") % {"title": phase_title(e["night"], e["phase"])},
    "deadline": lambda e: _("The game master moved the deadline of %(phase)s.") % {"phase": phase(e["phase"])},
    "revision_window": lambda e: _("A revision window (预结算前) opened: actions may change until it ends, "
                                   "except those that used a 预结算前 skill."),
    "revision_closed": lambda e: _("The revision window closed."),
    "learn": lambda e: (_("You learned: %(id)s is %(name)s (%(identity)s).") % {
        "id": _id(e["id"]), "name": e["name"], "identity": e["identity"]} if e.get("identity") else
        _("You learned: %(id)s is %(name)s.") % {"id": _id(e["id"]), "name": e["name"]}),
    "feedback": lambda e: _("Feedback for %(character)s: %(text)s") % {"character": e.get("character", ""),
                                                                     "text": e.get("text", "")},
    "status": lambda e: _("%(character)s %(status)s.") % {
        "character": e.get("character", ""),
        "status": STATUSES[e["status"]]() if e.get("status") in STATUSES else e.get("status")},
    "void": lambda e: _("%(character)s's %(action)s did not take effect (%(reason)s).") % {
        "character": e.get("character", ""), "action": flat(e.get("action")), "reason": flat(e.get("reason"))},
    "joined": lambda e: _("%(character)s joined %(country)s.") % {"character": e.get("character", _id(e.get("id"))),
                                                                 "country": e.get("country", "")},
    "no_advisor": lambda e: _("%(country)s has no 军师 left: only 刺杀 and votes from now on.") % {
        "country": e.get("country", "")},
    "decision": lambda e: _("Asked of you: %(question)s") % {"question": decision(e)},
    "answered": lambda e: _("You answered: %(choice)s.") % {"choice": choice_label("answer", e)},
    "announcement": _announcement,
    "ballot": lambda e: (_("Vote %(vote)s: %(voter)s voted for %(target)s.") % {
        "vote": e.get("vote"), "voter": _id(e.get("voter")), "target": _id(e.get("target"))}
        if e.get("target") is not None else
        _("Vote %(vote)s: %(voter)s withdrew their ballot.") % {"vote": e.get("vote"), "voter": _id(e.get("voter"))}),
    "ballots": _ballots,
    "wound_judgement": lambda e: _("Wound checks (伤判): %(outcomes)s.") % {
        "outcomes": "; ".join(f"{_id(o['id'])} {outcome(o['outcome'])}" for o in e.get("outcomes", [])) or _("none")},
    "vote_outcome": lambda e: (_("Vote %(vote)s: %(id)s %(outcome)s.") % {
        "vote": e.get("vote"), "id": _id(e["id"]), "outcome": outcome(e.get("outcome"))} if e.get("id") is not None else
        _("Vote %(vote)s: no one was hurt (无人受伤).") % {"vote": e.get("vote")}),
    "destroyed": lambda e: _("%(country)s is destroyed.") % {"country": e.get("country", "")},
    "zhao_yun_targets": lambda e: _("残兵之首's targets on nights 1–3: %(ids)s.") % {"ids": _ids(e.get("targets"))},
    "game_over": lambda e: _("The game is over: %(winner)s (%(reason)s).") % {
        "winner": flat(e.get("winner")), "reason": flat(e.get("reason"))},
}


def event(e, audience=None):
    """One projected event as a sentence. Sentences to a seat speak to it ("You …"); one the game
    master (or a replay's "all") reads of a seat's says whose it was."""
    kind = e.get("type", "")
    try:
        line = EVENTS[kind](e) if kind in EVENTS else _generic(kind, e)
    except (KeyError, TypeError):
        # An event of a known kind missing a field (an older record's) still reads as a line.
        line = _generic(kind, e)
    to = e.get("to")
    if isinstance(to, list) and not isinstance(audience, int):
        return _("To seat %(seats)s: %(line)s") % {"seats": ", ".join(map(str, to)), "line": line}
    return line


# ---- announcements and ballots ---------------------------------------------------------------

def announcement(a):
    """A night's announcement as sentences: deaths, wounds, 遗言, destroyed countries, alliances, texts."""
    lines = []
    for death in a.get("deaths", []):
        words = _("%(id)s left the game.") if death.get("left") else _("%(id)s died.")
        lines.append(words % {"id": _id(death["id"])})
    if a.get("wounded"):
        lines.append(_("Wounded: %(ids)s.") % {"ids": _ids(a["wounded"])})
    if not a.get("deaths") and not a.get("wounded"):
        lines.append(_("No one died or was wounded."))
    for words in a.get("last_words", []):
        said = [_id(words["id"]) + ":", words.get("text", "")]
        if words.get("country"):
            said.append(_("declared %(country)s") % {"country": words["country"]})
        if words.get("call") is not None:
            said.append(_("号票 on %(id)s") % {"id": _id(words["call"])})
        lines.append(_("遗言 of %(words)s") % {"words": " ".join(said)})
    for country in a.get("destroyed", []):
        lines.append(_("%(country)s is destroyed.") % {"country": country})
    for pair in a.get("alliances", []):
        lines.append(_("Alliance: %(countries)s.") % {"countries": " + ".join(pair)})
    lines += [str(t) for t in a.get("texts", [])]
    return lines


def ballot_list(ballots):
    return "; ".join(_("%(voter)s → %(target)s") % {"voter": _id(b["voter"]), "target": _id(b["target"])}
                     if b.get("target") is not None else _("%(voter)s: no valid ballot") % {"voter": _id(b["voter"])}
                     for b in ballots) or _("none")


def ballots(by_vote):
    """The public ballots ({vote: [{voter, target}]}) as one line per vote, the latest first."""
    return [_("Vote %(vote)s: %(ballots)s") % {"vote": vote, "ballots": ballot_list(items)}
            for vote, items in sorted(by_vote.items(), key=lambda item: -int(item[0]))]


def feedback(f):
    return _("Night %(night)s · %(character)s: %(text)s") % {
        "night": f.get("night"), "character": f.get("character") or "—", "text": f.get("text", "")}


# How a seat learnt an ID (``sanguo.known``), each with the night it came.
LEARNT = {
    "start": lambda: _("at the start: your country's killers know each other (ruling 8)"),
    "identified": lambda: _("your identification found it (feedback of night %(night)s)"),
    "joined": lambda: _("recognised on joining a country (night %(night)s)"),
    "succession": lambda: _("a successor took over an ID you knew (night %(night)s)"),
    "reveal": lambda: _("the reveal after vote 3 (day %(night)s)"),
    "gm": lambda: _("the game master's ruling (night %(night)s)"),
    "mutual": lambda: _("mutual recognition: it was found by or shared with your group (night %(night)s)"),
}


def learnt(entry):
    """One recognition (``sanguo.known``) as words: the name, its identity if told, and how."""
    how = LEARNT[entry["how"]]() % {"night": entry["night"]}
    name = entry["name"] + (f" ({entry['identity']})" if entry.get("identity") else "")
    return _("%(name)s — %(how)s") % {"name": name, "how": how}
