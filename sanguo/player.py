"""A seat's forms on the 三国 page, and the way back from a posted form to one command.

The forms are built from the engine's ``legal_commands`` for the seat, computed at the server's
clock now: the engine's own clock is the last command's ``at``, so its 立刻 cutoff would lag behind
a page loaded later. One form per acting character and action; its targets are the IDs the legal
commands use and, beside each, the character the seat knows holds it (ruling 10: naming makes the
action void if that character no longer holds the ID). A posted form is turned into a command only
from parts that form offers, and only if the command is among the legal ones (for a ``choose``
family: any set of its IDs within its bounds); the service then applies it and the engine judges it
again. So every choice a form offers is one the engine accepts — but for a skill's several selects
naming one ID twice, which the page refuses with a reason — and nothing the page did not offer is
sent.
"""
import json
from datetime import datetime, timezone as tz

from django.utils.translation import gettext as _

from game.errors import ServiceError
from game.games.three_kingdoms import engine

from . import texts

# The rules' 立刻 cutoff (ruling 12): 立刻 actions and 自杀 close ten minutes before the deadline.
IMMEDIATE_CUTOFF = 600
COUNTRIES = ("魏", "蜀", "吴")
# A character's forms in this order: what it does most nights first, 自杀 (irreversible) last.
ORDER = ("assassinate", "skill", "identify", "reassign", "request", "vote", "suicide")
# Why an own submission cannot be withdrawn, by the engine's refusal code.
LOCK_REASONS = {
    "nothing_to_cancel": lambda: _("立刻: already in effect, it cannot be withdrawn."),
    "locked_action": lambda: _("Used a 预结算前 skill: it cannot change in the revision window."),
    "wrong_phase": lambda: _("The phase has closed: it can no longer be changed."),
}


def moment(seconds):
    return datetime.fromtimestamp(seconds, tz=tz.utc)


def _holder(slot):
    return slot["chain"][slot["holder"]]


def _canonical(command):
    return json.dumps(command, ensure_ascii=False, sort_keys=True)


def _key(kind, body):
    if kind in ("answer", "last_words"):
        return f"{kind}|{body['decision']}"
    if kind == "skill":
        return f"skill|{body['actor']}|{body['skill']}"
    if kind == "identify":
        return f"identify|{body['actor']}|{body['index']}"
    if kind == "vote":
        return f"vote|{body['voter']}"
    if kind == "peace":
        return "peace"
    return f"{kind}|{body['actor']}"


class Seat:
    """What one seat may do now: its forms by key, grouped for the page."""

    def __init__(self, state, seat, now):
        self.state = dict(state, clock=max(state["clock"], now))
        self.seat = seat
        self.known = state["known"][str(seat)]
        self.forms = {}
        for command in engine.legal_commands(self.state, seat):
            (kind, body), = command.items()
            key = _key(kind, body)
            form = self.forms.setdefault(key, {"key": key, "kind": kind, "body": body, "commands": []})
            form["commands"].append(command)
        for form in self.forms.values():
            BUILDERS[form["kind"]](self, form)
        self.locks = {}
        self._withdrawals()

    # ---- targets -------------------------------------------------------------------------------

    def targets(self, ids):
        """The target options for ``ids``: each ID, then each recognised character holding one."""
        by_id = [(str(i), _("ID %(id)s") % {"id": i}, i) for i in ids]
        by_name = []
        for ident in ids:
            name = _holder(self.state["slots"][ident - 1])
            if name in self.known.get(str(ident), ()):
                by_name.append((name, _("%(name)s (ID %(id)s)") % {"name": name, "id": ident}, ident))
        return {"ids": by_id, "names": by_name, "map": {v: i for v, _label, i in by_id + by_name}}

    def _pick(self, form, value):
        """A posted target: an ID the form offers (as a number) or a name it offers (as the name)."""
        if value not in form["targets"]["map"]:
            raise ServiceError("bad_target", _("Choose a target from the list."))
        return int(value) if value.isdigit() else value

    # ---- the page ------------------------------------------------------------------------------

    def characters(self, view, ballots):
        """Own characters in play, each with its forms, its submissions (``ballots``: its ballot this
        vote, in words) and what locks them."""
        revision = self.state.get("revision")
        locked = {_holder(s) for s in self.state["slots"] if revision and s["id"] in revision["locked"]}
        groups = []
        for c in view["characters"]:
            if not c["controlled"] or c["status"] not in ("normal", "wounded", "outside"):
                continue
            name = c["name"]
            forms = sorted((f for f in self.forms.values() if f["kind"] != "cancel"
                            and f["body"].get("actor", f["body"].get("voter")) == name),
                           key=lambda f: ORDER.index(f["kind"]))
            notes = []
            if name in locked:
                notes.append(LOCK_REASONS["locked_action"]())
            if c["status"] == "wounded":
                notes.append(_("Wounded: it cannot act or vote."))
            closed = self._immediate_closed(name)
            if closed:
                notes.append(_("立刻 closed ten minutes before the deadline: %(skills)s.") % {"skills": closed})
            groups.append({"name": name, "id": c["id"], "forms": forms, "notes": notes, "ballot": ballots.get(name),
                           "submissions": self._submissions(view, name)})
        return groups

    def _immediate_closed(self, name):
        """The character's 立刻 skills (and 自杀) shut by the cutoff in this 夜晚行动, as words."""
        state = self.state
        if state["phase"] != "night_action" or self.immediate_open():
            return ""
        skills = [s["name"] for s in state["data"]["skills"] if s["owner"] == name and s["timing"] == "立刻"]
        return "、".join(skills + ["自杀"])

    def immediate_open(self):
        deadline = self.state["deadline"]
        return deadline is None or self.state["clock"] <= deadline - IMMEDIATE_CUTOFF

    def immediate_until(self):
        """When 立刻 actions close (only while 夜晚行动 runs), as a moment."""
        if self.state["phase"] != "night_action" or self.state["deadline"] is None:
            return None
        return moment(self.state["deadline"] - IMMEDIATE_CUTOFF)

    def _withdrawals(self):
        """A withdraw form for each own submission the engine would let go now, else why not."""
        for s in self.state["slots"]:
            if s["controller"] != self.seat:
                continue
            name = _holder(s)
            for what in self.state["subs"].get(str(s["id"]), {}):
                withdraw = {"cancel": {"actor": name, "what": what}}
                try:
                    engine.apply(self.state, self.seat, withdraw)
                except engine.IllegalCommand as refused:
                    self.locks[(name, what)] = LOCK_REASONS.get(refused.code, LOCK_REASONS["wrong_phase"])()
                    continue
                key = f"cancel|{name}|{what}"
                self.forms[key] = {"key": key, "kind": "cancel", "body": withdraw["cancel"], "commands": [withdraw],
                                   "legal": {_canonical(withdraw)}}

    def _submissions(self, view, name):
        out = []
        for sub in view["submissions"]:
            if sub["character"] == name:
                key = f"cancel|{name}|{sub['action']}"
                withdrawable = key in self.forms
                # The engine takes one active skill a night, and none with a 刺杀: a submitted skill is
                # changed by withdrawing it, where other actions are changed by submitting again.
                hint = ""
                if withdrawable and sub["action"] == "skill":
                    hint = _("Withdraw it to choose another skill or 刺杀.")
                out.append({"text": texts.submission(sub), "withdraw": key if withdrawable else "", "hint": hint,
                            "locked": self.locks.get((name, sub["action"]), "")})
        return out

    def asked(self):
        """Answers to the choices asked of the seat."""
        return [f for f in self.forms.values() if f["kind"] in ("answer", "last_words")]

    def peace(self):
        return self.forms.get("peace")

    # ---- posted forms --------------------------------------------------------------------------

    def command(self, post):
        form = self.forms.get(post.get("form", ""))
        if form is None:
            raise ServiceError("not_offered", _("That action is not open now: the page has been refreshed."))
        command = READERS[form["kind"]](self, form, post)
        if form["kind"] not in FREE_FORMS and _canonical(self._by_id(command)) not in form["legal"]:
            raise ServiceError("not_offered", _("That combination is not allowed: choose different targets."))
        return command

    def _by_id(self, command):
        """The command with named targets as the IDs they stand for (to compare with the legal ones)."""
        (kind, body), = command.items()
        body = dict(body)
        as_id = {v: i for v, _label, i in self.targets(range(1, len(self.state["slots"]) + 1))["names"]}
        if "target" in body:
            body["target"] = as_id.get(body["target"], body["target"])
        if "targets" in body:
            body["targets"] = [as_id.get(t, t) for t in body["targets"]]
        return {kind: body}


def _ids_of(commands, field):
    ids = set()
    for command in commands:
        (_kind, body), = command.items()
        value = body.get(field)
        ids.update(value if isinstance(value, list) else [value] if isinstance(value, int) else [])
    return sorted(ids)


def _legal(form):
    form["legal"] = {_canonical(c) for c in form["commands"]}


def _build_targeted(seat, form):
    kind, body = form["kind"], form["body"]
    form["title"] = texts.action_title(kind, body)
    field = "targets" if kind == "skill" else "target"
    form["targets"] = seat.targets(_ids_of(form["commands"], field))
    count = len(body["targets"]) if kind == "skill" else 1
    form["positions"] = list(range(count))
    if kind == "skill":
        skill = next((s for s in seat.state["data"]["skills"] if s["owner"] == body["actor"]
                      and s["name"] == body["skill"]), {})
        form["immediate"] = skill.get("timing") == "立刻"
        form["about"] = skill.get("text", "")
    if kind == "reassign":
        form["killers"] = sorted({c["reassign"]["killer"] for c in form["commands"]})
    _legal(form)


def _read_targeted(seat, form, post):
    kind, body = form["kind"], form["body"]
    picked = [seat._pick(form, post.get(f"target{i}", "")) for i in form["positions"]]
    if kind == "skill":
        return {"skill": {"actor": body["actor"], "skill": body["skill"], "targets": picked}}
    made = {"actor": body["actor"], "target": picked[0]}
    if kind == "reassign":
        made["killer"] = post.get("killer", "")
    return {kind: made}


def _build_identify(seat, form):
    body = form["body"]
    form["title"] = texts.action_title("identify", body)
    if "choose" in body:
        choose = body["choose"]
        ids, most, names = choose["from"], choose["max"], body.get("names_from")
    else:
        ids = _ids_of(form["commands"], "targets")
        most = max(len(c["identify"]["targets"]) for c in form["commands"])
        names = sorted({c["identify"]["names"][0] for c in form["commands"] if c["identify"].get("names")}) or None
    form.update(ids=ids, most=most, names=names)
    spec = seat.state["data"]["identifications"].get(body["actor"], [])[body["index"]]
    form["about"] = texts.identification(spec)


def _read_identify(seat, form, post):
    chosen = post.getlist("targets")
    if not all(v.isdigit() and int(v) in form["ids"] for v in chosen) or len(set(chosen)) != len(chosen):
        raise ServiceError("bad_target", _("Choose IDs from the list."))
    if not 1 <= len(chosen) <= form["most"]:
        raise ServiceError("bad_targets", _("Choose from 1 to %(most)s IDs.") % {"most": form["most"]})
    made = {"actor": form["body"]["actor"], "index": form["body"]["index"], "targets": sorted(map(int, chosen))}
    if form["names"]:
        name = post.get("name", "")
        if name not in form["names"]:
            raise ServiceError("bad_names", _("Choose a 在野 character to recruit."))
        made["names"] = [name]
    return {"identify": made}


def _build_choice(seat, form):
    """Forms answered by one choice among the legal commands (votes, 投奔, answers): an option each."""
    form["title"] = texts.action_title(form["kind"], form["body"])
    options = []
    for command in form["commands"]:
        (kind, body), = command.items()
        options.append((str(len(options)), texts.choice_label(kind, body), command))
        target = body.get("target")
        if kind == "vote" and target is not None:
            for value, label, _i in seat.targets([target])["names"]:
                named = {"vote": dict(body, target=value)}
                options.append((str(len(options)), texts.choice_label("vote", named["vote"]), named))
    form["options"] = options
    _legal(form)
    form["legal"] |= {_canonical(seat._by_id(c)) for _v, _l, c in options}
    if form["kind"] == "answer":
        decision = next((d for d in seat.state["pending"] if d["key"] == form["body"]["decision"]), {})
        form["decision"] = texts.decision(decision)


def _read_choice(seat, form, post):
    chosen = post.get("choice", "")
    for value, _label, command in form["options"]:
        if value == chosen:
            return command
    raise ServiceError("bad_choice", _("Choose one of the options."))


def _build_single(seat, form):
    form["title"] = texts.action_title(form["kind"], form["body"])
    form["immediate"] = form["kind"] == "suicide"
    _legal(form)


def _read_single(seat, form, post):
    return form["commands"][0]


def _build_last_words(seat, form):
    decision = next(d for d in seat.state["pending"] if d["key"] == form["body"]["decision"])
    form.update(title=texts.action_title("last_words", form["body"]), decision=texts.decision(decision),
                countries=COUNTRIES, ids=list(range(1, len(seat.state["slots"]) + 1)))


def _read_last_words(seat, form, post):
    made = {"decision": form["body"]["decision"], "text": post.get("text", "")}
    country, call = post.get("country", ""), post.get("call", "")
    if country:
        if country not in COUNTRIES:
            raise ServiceError("bad_last_words", _("Choose a country from the list."))
        made["country"] = country
    if call:
        if not call.isdigit() or int(call) not in form["ids"]:
            raise ServiceError("bad_last_words", _("Choose an ID from the list."))
        made["call"] = int(call)
    return {"last_words": made}


# Forms whose commands are not listed one by one: the form checks their parts, the engine the rest.
FREE_FORMS = ("identify", "last_words")
BUILDERS = {"assassinate": _build_targeted, "skill": _build_targeted, "reassign": _build_targeted,
            "identify": _build_identify, "vote": _build_choice, "request": _build_choice, "answer": _build_choice,
            "suicide": _build_single, "peace": _build_single, "last_words": _build_last_words}
READERS = {"assassinate": _read_targeted, "skill": _read_targeted, "reassign": _read_targeted,
           "identify": _read_identify, "vote": _read_choice, "request": _read_choice, "answer": _read_choice,
           "suicide": _read_single, "peace": _read_single, "cancel": _read_single,
           "last_words": _read_last_words}
