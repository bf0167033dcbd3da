"""Recognition and what each human knows (rulings 8–11, 6, 57).

Recognition is a directed relation between IDs ("A得知B角色对应的ID"), kept through succession. A
human knows an ID's character when an ID they control recognises it; what they know is recorded
per seat as ``known[seat][id] = [names]`` at the moment they learn it (a later successor on that ID
is added only for the human who controls it), so a view never derives a name from the live state.
"""
from __future__ import annotations

from .. import roster
from ..state import event, holder, in_play, slot


def _pairs(state):
    return {(a, b) for a, b in state["recognition"]}


def recognise(state, events, a, b, mutual=False):
    """Record that ID ``a`` knows ID ``b`` (and the reverse if ``mutual``)."""
    recognise_all(state, events, [(a, b)] + ([(b, a)] if mutual else []))


def recognise_all(state, events, new):
    """Record the directed pairs ``new``, pool within countries (ruling 9) and tell every human
    what they newly know."""
    pairs = _pairs(state)
    pairs.update((a, b) for a, b in new if a != b)
    _pool(state, pairs)
    added = sorted(pairs - _pairs(state))
    state["recognition"] = [list(p) for p in sorted(pairs)]
    for knower, known in added:
        learn(state, events, slot(state, knower)["controller"], known)


def learn(state, events, seat, ident, identity=False):
    """Seat ``seat`` learns which character holds ID ``ident`` now (an event to it alone)."""
    if seat is None:
        return
    s = slot(state, ident)
    name = holder(s)
    names = state["known"][str(seat)].setdefault(str(ident), [])
    if name not in names:
        names.append(name)
        fields = {"id": ident, "name": name}
        if identity:
            fields["identity"] = s["identity"]
        events.append(event("learn", [seat], **fields))


def knows(state, seat, ident, name):
    return name in state["known"][str(seat)].get(str(ident), ())


def mutual_groups(state, country, pairs=None):
    """The same-country groups linked by mutual recognition, as sets of IDs (singletons included)."""
    pairs = _pairs(state) if pairs is None else pairs
    ids = [s["id"] for s in state["slots"] if s["country"] == country]
    parent = {i: i for i in ids}

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in pairs:
        if a in parent and b in parent and (b, a) in pairs:
            parent[root(a)] = root(b)
    groups = {}
    for i in ids:
        groups.setdefault(root(i), set()).add(i)
    return list(groups.values())


def group_of(state, ident):
    """The voter's mutual-recognition group (ruling 53) if it has at least two IDs, else None."""
    country = slot(state, ident)["country"]
    for group in mutual_groups(state, country):
        if ident in group and len(group) >= 2:
            return min(group)
    return None


def _pool(state, pairs):
    """Ruling 9: members of a mutual group share what any of them knows of same-country IDs, until
    nothing changes (the text's A/B/C example ends with A and C mutual)."""
    changed = True
    while changed:
        changed = False
        for country in roster.COUNTRIES:
            members_of = {s["id"] for s in state["slots"] if s["country"] == country}
            for group in mutual_groups(state, country, pairs):
                if len(group) < 2:
                    continue
                known = {b for a, b in pairs if a in group and b in members_of}
                for a in group:
                    for b in known:
                        if a != b and (a, b) not in pairs:
                            pairs.add((a, b))
                            changed = True


def on_succession(state, events, s):
    """The controller of a slot that knew its own ID knows the successor holds it."""
    seat = s["controller"]
    if seat is not None and str(s["id"]) in state["known"][str(seat)]:
        learn(state, events, seat, s["id"])


def reveal(state, events):
    """Ruling 11, after vote 3: each country's IDs mutually recognised (赵云's ID excepted while he
    holds it), each human told their country's IDs and identities, hidden relations released."""
    recognise_all(state, events, [tuple(p) for p in state["hidden_recognition"]])
    state["hidden_recognition"] = []
    for country in roster.COUNTRIES:
        members = [s for s in state["slots"] if s["country"] == country and in_play(s)]
        open_ids = [s["id"] for s in members if holder(s) != roster.ZHAO_YUN]
        recognise_all(state, events, [(a, b) for a in open_ids for b in open_ids])
        humans = {s["controller"] for s in members if s["controller"] is not None}
        for seat in humans:
            for s in members:
                if holder(s) != roster.ZHAO_YUN or s["controller"] == seat:
                    learn(state, events, seat, s["id"], identity=True)


def channels(state):
    """Ruling 6: one private channel per same-country mutual group, or cross-country mutual pair,
    that spans at least two humans: ``[{"ids": [...], "seats": [...]}]``."""
    out = []
    pairs = _pairs(state)
    for country in roster.COUNTRIES:
        for group in mutual_groups(state, country, pairs):
            out.append(sorted(group))
    for a, b in pairs:
        if a < b and (b, a) in pairs and slot(state, a)["country"] != slot(state, b)["country"]:
            out.append([a, b])
    result = []
    for ids in out:
        seats = sorted({slot(state, i)["controller"] for i in ids} - {None})
        if len(seats) >= 2:
            result.append({"ids": ids, "seats": seats})
    return result
