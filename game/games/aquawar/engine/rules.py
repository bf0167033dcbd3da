"""Turn flow: checking commands, running picks, assertions and actions, ending rounds and matches.

Every command is checked completely before anything changes, so a refused command leaves the state
untouched even with ``in_place=True``.
"""
from ...engines.errors import IllegalCommand, accepts
from . import combat
from .legal import TEAM_SIZE, skill_targets
from .species import MIMIC, SPECIES_SET, skill_category
from .state import MAX_TURNS, SEED_MAX, SEED_MIN, TURN_LIMITS, Fish, MatchState

WINS_NEEDED = 2
ASSERT_HP_LOSS = 50
RESIGN_REASONS = ("resign", "timeout", "illegal", "abandon")


def new_match(seed, first_mover=None, *, dodges=None, turn_limit=MAX_TURNS):
    """``dodges``: recorded dodge outcomes to use in roll order instead of the generator's rolls;
    ``turn_limit``: 64 (the rules) or 63 (the 2021 official program, for its replays)."""
    if not _is_int(seed) or not SEED_MIN <= seed <= SEED_MAX:
        raise IllegalCommand("bad_seed", "The seed must be an integer from -2**63 to 2**63-1.")
    if first_mover is not None and first_mover not in (0, 1):
        raise IllegalCommand("bad_first_mover", "The first mover must be player 0 or 1.")
    if dodges is not None and not (isinstance(dodges, (list, tuple)) and all(isinstance(d, bool) for d in dodges)):
        raise IllegalCommand("bad_dodges", "Recorded dodge outcomes must be a list of true/false.")
    if not _is_int(turn_limit) or turn_limit not in TURN_LIMITS:
        raise IllegalCommand("bad_turn_limit", f"The turn limit must be one of {', '.join(map(str, TURN_LIMITS))}.")
    state = MatchState(seed, None, dodges, turn_limit)
    drawn = state.next_random() & 1
    state.first_mover = drawn if first_mover is None else first_mover
    return state


def apply(state, player, command, *, in_place=False):
    """Apply ``command`` for ``player``; returns ``(state, events)`` or raises ``IllegalCommand``."""
    kind, checked = _check(state, player, command)
    if not in_place:
        state = state.copy()
    events = []
    if kind == "pick":
        _run_pick(state, events, player, checked)
    elif kind == "assert":
        _run_assert(state, events, player, checked)
    else:
        _run_act(state, events, player, checked)
    return state, events


def is_legal(state, player, command):
    return accepts(_check, state, player, command)


def resign(state, player, reason="resign", *, in_place=False):
    """``player`` loses the whole match at once (resignation, clock, illegal move in bot play)."""
    if player not in (0, 1):
        raise IllegalCommand("bad_player", "The player must be 0 or 1.")
    if reason not in RESIGN_REASONS:
        raise IllegalCommand("bad_reason", f"Unknown reason {reason!r}; expected one of {', '.join(RESIGN_REASONS)}.")
    if state.phase == "over":
        raise IllegalCommand("match_over", "The match is already over.")
    if not in_place:
        state = state.copy()
    events = []
    _end_match(state, events, 1 - player, reason)
    return state, events


# --- checking -------------------------------------------------------------------------------


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _check(state, player, command):
    if player not in (0, 1) or isinstance(player, bool):
        raise IllegalCommand("bad_player", "The player must be 0 or 1.")
    if not isinstance(command, dict) or len(command) == 0:
        raise IllegalCommand("malformed", "A command must be an object with one of: pick, assert, act.")
    keys = set(command)
    if "pick" in keys:
        if not keys <= {"pick", "mimic"}:
            raise IllegalCommand("malformed", f"Unexpected fields in a pick: {', '.join(sorted(keys - {'pick', 'mimic'}))}.")
        kind = "pick"
    elif keys == {"assert"}:
        kind = "assert"
    elif keys == {"act"}:
        kind = "act"
    else:
        raise IllegalCommand("malformed", "A command must have exactly one of: pick, assert, act.")

    if state.phase == "over":
        raise IllegalCommand("match_over", "The match is over; no more commands are accepted.")
    if kind == "pick":
        return kind, _check_pick(state, player, command)
    if state.phase == "pick":
        raise IllegalCommand("wrong_phase", "Both players must pick their teams first.")
    if state.to_move != player:
        raise IllegalCommand("not_your_turn", f"It is player {state.to_move}'s turn.")
    if kind == "assert":
        if state.phase != "assert":
            raise IllegalCommand("wrong_phase", "The assertion phase of this turn is over; choose an action.")
        return kind, _check_assert(state, player, command["assert"])
    if state.phase != "act":
        raise IllegalCommand("wrong_phase", "Assert first (or skip the assertion) before acting.")
    return kind, _check_act(state, player, command["act"])


def _check_species(value, what):
    if not isinstance(value, str) or value not in SPECIES_SET:
        # Only a string is quoted back: repr() of a deeply nested list recurses as deep as it goes.
        shown = repr(value[:40]) if isinstance(value, str) else f"a {type(value).__name__}"
        raise IllegalCommand("unknown_species", f"{what}: {shown} is not a species.")
    return value


def _check_pick(state, player, command):
    if state.phase != "pick":
        raise IllegalCommand("wrong_phase", "Teams are picked only at the start of a round.")
    if state.picks[player] is not None:
        raise IllegalCommand("already_picked", "You have already locked your team for this round.")
    fish = command["pick"]
    if not isinstance(fish, list):
        raise IllegalCommand("malformed", "pick must be a list of four species.")
    if len(fish) != TEAM_SIZE:
        raise IllegalCommand("wrong_pick_count", f"Pick exactly {TEAM_SIZE} species (got {len(fish)}).")
    for s in fish:
        _check_species(s, "pick")
    if len(set(fish)) != TEAM_SIZE:
        raise IllegalCommand("duplicate_species", "Each species can be picked once per team.")
    for s in fish:
        if s in state.used[player]:
            raise IllegalCommand("species_used", f"You fielded {s} in an earlier round; pick unused species.")
    mimic = command.get("mimic")
    if MIMIC in fish:
        if mimic is None:
            raise IllegalCommand("mimic_target_missing", "Choose which species the Mimic Fish copies.")
        _check_species(mimic, "mimic")
        if mimic == MIMIC:
            raise IllegalCommand("mimic_copies_itself", "The Mimic Fish must copy one of the other 11 species.")
    elif mimic is not None:
        raise IllegalCommand("mimic_without_mimic", "A copy target is only given when the Mimic Fish is picked.")
    return {"fish": list(fish), "mimic": mimic if MIMIC in fish else None}


def _check_position(value, what):
    if not _is_int(value) or not 0 <= value < TEAM_SIZE:
        raise IllegalCommand("no_such_fish", f"{what} must be a position from 0 to {TEAM_SIZE - 1}.")
    return value


def _check_assert(state, player, body):
    if body is None:
        return None
    if not isinstance(body, dict) or set(body) != {"target", "fish"}:
        raise IllegalCommand("malformed", 'An assertion is null (skip) or {"target": position, "fish": species}.')
    target = _check_position(body["target"], "target")
    species = _check_species(body["fish"], "fish")
    fish = state.teams[1 - player][target]
    if not fish.alive:
        raise IllegalCommand("target_dead", "Only a living enemy can be asserted.")
    if fish.revealed:
        raise IllegalCommand("target_revealed", "That enemy is already revealed.")
    return target, species


def _check_act(state, player, body):
    if not isinstance(body, dict):
        raise IllegalCommand("malformed", "act must be an object with actor and kind.")
    unknown = set(body) - {"actor", "kind", "ally", "enemy"}
    if unknown:
        raise IllegalCommand("malformed", f"Unexpected fields in act: {', '.join(sorted(unknown))}.")
    actor = _check_position(body.get("actor"), "actor")
    team = state.teams[player]
    enemies = state.teams[1 - player]
    fish = team[actor]
    if not fish.alive:
        raise IllegalCommand("actor_dead", "A dead fish cannot act.")
    kind = body.get("kind")
    if kind == "attack":
        if "ally" in body:
            raise IllegalCommand("extra_target", "A normal attack takes no ally.")
        enemy = _check_enemy(enemies, body, "any")
        return actor, kind, None, enemy
    if kind != "skill":
        raise IllegalCommand("unknown_action", 'kind must be "attack" or "skill".')
    ally_rule, enemy_rule = skill_targets(fish)
    ally = _check_ally(team, actor, body, ally_rule)
    enemy = _check_enemy(enemies, body, enemy_rule)
    return actor, kind, ally, enemy


def _check_ally(team, actor, body, rule):
    if rule is None:
        if "ally" in body:
            raise IllegalCommand("extra_target", "This skill takes no ally.")
        return None
    if "ally" not in body:
        raise IllegalCommand("missing_target", "This skill needs an ally.")
    ally = _check_position(body["ally"], "ally")
    if ally == actor and rule == "mate":
        raise IllegalCommand("self_target", "This skill must target a teammate, not the acting fish.")
    if not team[ally].alive:
        raise IllegalCommand("target_dead", "The ally must be alive.")
    return ally


def _check_enemy(enemies, body, rule):
    if rule is None:
        if "enemy" in body:
            raise IllegalCommand("extra_target", "This skill takes no enemy target.")
        return None
    if "enemy" not in body:
        raise IllegalCommand("missing_target", "Choose an enemy target.")
    enemy = _check_position(body["enemy"], "enemy")
    if not enemies[enemy].alive:
        raise IllegalCommand("target_dead", "The enemy target must be alive.")
    if rule == "lowest":
        lowest = min(f.hp for f in enemies if f.alive)
        if enemies[enemy].hp != lowest:
            raise IllegalCommand("not_lowest_hp", "This skill must target an enemy with the lowest HP.")
    return enemy


# --- running --------------------------------------------------------------------------------


def _run_pick(state, events, player, pick):
    state.picks[player] = pick
    events.append({"type": "pick", "player": player, "fish": list(pick["fish"]), "mimic": pick["mimic"]})
    if None in state.picks:
        return
    state.teams = [
        [Fish(s, state.picks[p]["mimic"] if s == MIMIC else None) for s in state.picks[p]["fish"]] for p in (0, 1)
    ]
    state.phase = "assert"
    state.turn = 0
    state.to_move = state.first_mover
    events.append({"type": "round_start", "round": state.round, "first_mover": state.first_mover})


def _run_assert(state, events, player, checked):
    if checked is None:
        events.append({"type": "assert_skip", "player": player})
        state.phase = "act"
        return
    target, species = checked
    fish = state.teams[1 - player][target]
    success = fish.species == species
    events.append({"type": "assert", "player": player, "target": target, "fish": species, "success": success})
    if success:
        fish.revealed = True
    losing_side = 1 - player if success else player
    for pos, victim in enumerate(state.teams[losing_side]):
        if victim.alive:
            victim.hp -= ASSERT_HP_LOSS
            events.append(
                {"type": "hp_loss", "side": losing_side, "pos": pos, "amount": ASSERT_HP_LOSS, "hp": max(victim.hp, 0)}
            )
    # A round can only end when a fish died, so most operations skip the check.
    if not (combat.settle_deaths(state, events) and _check_round_end(state, events, player)):
        state.phase = "act"


def _run_act(state, events, player, checked):
    actor, kind, ally, enemy = checked
    fish = state.teams[player][actor]
    action = {"type": "action", "player": player, "actor": actor, "kind": kind}
    if kind == "attack":
        action["enemy"] = enemy
        events.append(action)
        combat.normal_attack(state, events, player, actor, enemy)
    else:
        action["category"] = skill_category(fish.active, fish.skill_uses)
        action["skill"] = fish.kind
        if ally is not None:
            action["ally"] = ally
        if enemy is not None:
            action["enemy"] = enemy
        events.append(action)
        combat.use_skill(state, events, player, actor, ally, enemy)
    if combat.settle_deaths(state, events) and _check_round_end(state, events, player):
        return
    state.turn += 1
    if state.turn >= state.turn_limit:
        _end_round(state, events, _tiebreak(state), "turn_limit")
        return
    state.to_move = 1 - player
    state.phase = "assert"


def _check_round_end(state, events, actor_side):
    alive = [any(f.alive for f in team) for team in state.teams]
    if alive[0] and alive[1]:
        return False
    winner = actor_side if not (alive[0] or alive[1]) else (0 if alive[0] else 1)
    # The turn in progress counts as played even though its action never came.
    state.turn += 1
    _end_round(state, events, winner, "wipeout" if (alive[0] or alive[1]) else "mutual")
    return True


def _tiebreak(state):
    """After the last turn: more fish → more total HP → higher single HP → the second mover."""
    def standing(team):
        hps = [f.hp for f in team if f.alive]
        return (len(hps), sum(hps), max(hps, default=0))

    first, second = standing(state.teams[0]), standing(state.teams[1])
    if first != second:
        return 0 if first > second else 1
    return 1 - state.first_mover


def _end_round(state, events, winner, reason):
    state.score[winner] += 1
    state.rounds.append(
        {"winner": winner, "first_mover": state.first_mover, "turns": state.turn, "reason": reason}
    )
    events.append(
        {
            "type": "round_end",
            "round": state.round,
            "winner": winner,
            "reason": reason,
            "turns": state.turn,
            "score": list(state.score),
        }
    )
    state.past_picks.append(list(state.picks))
    for p in (0, 1):
        state.used[p].extend(state.picks[p]["fish"])
    if state.score[winner] >= WINS_NEEDED:
        _end_match(state, events, winner, "rounds")
        return
    state.round += 1
    state.phase = "pick"
    state.to_move = None
    state.turn = 0
    state.picks = [None, None]
    state.teams = [[], []]
    state.first_mover = 1 - winner  # the winner moves second next round


def _end_match(state, events, winner, reason):
    state.phase = "over"
    state.to_move = None
    state.winner = winner
    state.end_reason = reason
    events.append({"type": "match_end", "winner": winner, "reason": reason, "score": list(state.score)})
