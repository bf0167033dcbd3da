"""What each audience may know. The only module that decides it.

Audiences: player ``0``, player ``1``, ``"spectator"`` (what both players know in common) and
``"all"`` (everything; for finished matches and for the server itself).

Each event type has one rule (``EVENT_RULES``): public, or owned by one side with a redacted form
for everyone else, per the rules' disclosure section "游戏过程可知信息详细说明". A side never sees
the other side's species (until revealed by assertion), a Mimic's copy target, ATK, shields,
pending delayed effects or which exact passive produced a visible effect.
"""
from ...engines import audiences
from .species import SPECIES


def _owner_player(event):
    return event["player"]


def _owner_side(event):
    return event["side"]


def _pick_public(event):
    return {"type": "pick", "player": event["player"]}


def _action_public(event):
    if event["kind"] == "attack":
        return event
    public = {
        "type": "action",
        "player": event["player"],
        "actor": event["actor"],
        "kind": "skill",
        "category": event["category"],
    }
    if event["category"] == "crit":
        public["enemy"] = event["enemy"]
    elif event["category"] == "harm_ally":
        public["ally"] = event["ally"]
    return public


def _avoid_public(event):
    return {"type": "reduce", "side": event["side"], "pos": event["pos"], "amount": event["amount"], "to": 0}


def _without(*keys):
    def redact(event):
        return {k: v for k, v in event.items() if k not in keys}

    return redact


def _hidden(event):
    return None


# type → (owner of the event, or None when public; what non-owners get).
EVENT_RULES = {
    "pick": (_owner_player, _pick_public),
    "round_start": (None, None),
    "assert": (None, None),
    "assert_skip": (None, None),
    "hp_loss": (None, None),
    "action": (_owner_player, _action_public),
    "damage": (None, None),
    "avoid": (_owner_side, _avoid_public),
    "reduce": (None, None),
    "share": (_owner_side, _without("how")),
    "heal": (_owner_side, _without("how")),
    "counter": (_owner_side, _without("by")),
    "explode": (None, None),
    "atk": (_owner_side, _hidden),
    "death": (None, None),
    "round_end": (None, None),
    "match_end": (None, None),
}


def visibility(event):
    """Who may see ``event``: ``("public", None)`` or ``("owner", side)``; everyone who is not the
    owner gets ``project_event(event, audience)`` (a redacted copy, or nothing)."""
    owner, _ = EVENT_RULES[event["type"]]
    return ("public", None) if owner is None else ("owner", owner(event))


def project_event(event, audience):
    """The form of ``event`` that ``audience`` may see, or ``None`` if it may see nothing of it."""
    if audience == "all":
        return event
    owner, redact = EVENT_RULES[event["type"]]
    if owner is None or owner(event) == audience:
        return event
    return redact(event)


def project(events, audience):
    return audiences.project(events, audience, project_event)


def _fish_view(fish, full):
    if full:
        return {
            "fish": fish.species,
            "hp": fish.hp,
            "atk": fish.current_atk(),
            "alive": fish.alive,
            "revealed": fish.revealed,
            "mimic_of": fish.mimic_of,
            "shields": fish.shields,
            "effects": fish.effects(),
            "skill_uses": fish.skill_uses,
        }
    return {
        "fish": fish.species if fish.revealed else None,
        "hp": fish.hp,
        "atk": None,
        "alive": fish.alive,
        "revealed": fish.revealed,
        "mimic_of": None,
        "shields": None,
        "effects": None,
        "skill_uses": None,
    }


def _pick_view(pick):
    return None if pick is None else {"fish": list(pick["fish"]), "mimic": pick["mimic"]}


def view(state, audience):
    """The state as ``audience`` may know it, as a JSON-ready dict (see the package docstring)."""
    audiences.check(audience)
    sees = [audience in ("all", side) for side in (0, 1)]
    return {
        "round": state.round,
        "phase": state.phase,
        "to_move": state.to_move,
        "turn": state.turn,
        "max_turns": state.turn_limit,
        "first_mover": state.first_mover,
        "score": list(state.score),
        "winner": state.winner,
        "end_reason": state.end_reason,
        "rounds": [dict(r) for r in state.rounds],
        "picked": [p is not None for p in state.picks],
        "picks": [_pick_view(state.picks[s]) if sees[s] else None for s in (0, 1)],
        "past_picks": [[_pick_view(pair[s]) if sees[s] else None for s in (0, 1)] for pair in state.past_picks],
        "available": [
            [sp for sp in SPECIES if sp not in state.used[s]] if sees[s] else None for s in (0, 1)
        ],
        "teams": [[_fish_view(f, sees[s]) for f in state.teams[s]] for s in (0, 1)],
    }
