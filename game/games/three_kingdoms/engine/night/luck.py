"""The server's probability judgements and 优判/劣判 (rulings 30, 55): every roll comes from the
match's generator, is logged for the game master as a ``roll`` event, and a character's luck
replaces the draw where the rules say what it does.

The rules' list: with 优判 a character wins every 拼点, breaks the 八卦阵, heals at 伤判, never fails
a 1/2 action, always makes a 1/2 defence, is always among a random pick of protected characters and
never among a random pick of harmed ones; 劣判 the reverse. So each judgement here is stated as
"favourable to ID x or not", and x's luck decides it before any draw.
"""
from __future__ import annotations

from ..state import GM, event, rand_below, slot

GOOD, BAD = "优", "劣"
NOT_FIXED = object()


def fixed(state, roll, ident=None, label=None, fits=lambda outcome: True):
    """The outcome the GM fixed for this roll by an override (ruling 60), taken from the queue, or
    NOT_FIXED: the first fixed roll of this kind whose ID and label (where it gives them) match
    and whose outcome fits this roll."""
    queue = state.get("fixed_rolls") or []
    for entry in queue:
        if (entry["roll"] == roll and entry.get("id", ident) == ident and entry.get("label", label) == label
                and fits(entry["outcome"])):
            queue.remove(entry)
            return entry["outcome"]
    return NOT_FIXED


def chance(state, events, ident, odds, label, against=None):
    """A judgement favourable to ID ``ident`` (and, if given, unfavourable to ID ``against``) with
    probability ``odds`` = [k, n] (k in n). Luck decides it before any draw: 优 of ``ident`` or 劣 of
    ``against`` make it favourable, the reverse unfavourable; lucks pulling both ways cancel."""
    lean = _lean(state, ident) - (_lean(state, against) if against is not None else 0)
    favourable = fixed(state, "chance", ident, label)
    by_gm = favourable is not NOT_FIXED
    if not by_gm:
        favourable = lean > 0 if lean else rand_below(state, odds[1]) < odds[0]
    events.append(event("roll", GM, kind=label, id=ident, against=against, odds=list(odds),
                        decided_by_luck=bool(lean) and not by_gm, fixed_by_gm=by_gm, favourable=favourable))
    return favourable


def _lean(state, ident):
    return {GOOD: 1, BAD: -1}.get(slot(state, ident).get("luck"), 0)


def pick(state, events, among, count, good, label):
    """``count`` distinct IDs drawn uniformly from ``among`` for something ``good`` (protection) or
    not (harm): a member whose luck makes the pick favourable to it is taken first, one whose luck
    makes it unfavourable last (优判 is always protected and never harmed; 劣判 the reverse)."""
    def favoured(ident):
        lean = _lean(state, ident)
        return None if not lean else (lean > 0) == good

    tiers = [[i for i in among if favoured(i) is True], [i for i in among if favoured(i) is None],
             [i for i in among if favoured(i) is False]]
    chosen = fixed(state, "pick", label=label, fits=lambda out: len(set(out)) == count and set(out) <= set(among))
    if chosen is not NOT_FIXED:
        events.append(event("roll", GM, kind=label, among=list(among), count=count, good=good, picked=chosen,
                            fixed_by_gm=True))
        return list(chosen)
    chosen = []
    for tier in tiers:
        tier = list(tier)
        while tier and len(chosen) < count:
            chosen.append(tier.pop(rand_below(state, len(tier))))
    events.append(event("roll", GM, kind=label, among=list(among), count=count, good=good, picked=chosen))
    return chosen


def contest(state, entrants, ident_of, events):
    """拼点 (ruling 30): 优判 beats the rest, 劣判 loses to them, else a uniform draw; logged for the GM."""
    lean = [_lean(state, ident_of(e)) for e in entrants]
    best = [e for e, lk in zip(entrants, lean) if lk > 0] or [e for e, lk in zip(entrants, lean) if lk == 0] or list(
        entrants)
    ids = [ident_of(e) for e in entrants]
    by_gm = fixed(state, "拼点", fits=lambda out: out in ids)
    if by_gm is not NOT_FIXED:
        winner = entrants[ids.index(by_gm)]
    else:
        winner = best[0] if len(best) == 1 else best[rand_below(state, len(best))]
    events.append(event("roll", GM, kind="拼点", ids=ids, winner=ident_of(winner), fixed_by_gm=by_gm is not NOT_FIXED))
    return winner
