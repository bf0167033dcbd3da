"""Damage and skills: one damage instance resolved step by step, and what each active does.

The steps of ``hit`` follow clarifications.md "Order of one damage instance" exactly:
before damage (shield, dodge) → when damaged (passive share > delayed reduction > delayed share,
direct attacks only) → HP loss → after damage (delayed heal > passive heal) → after being directly
attacked (own counter / explosion > teammates' counters). Whatever a step triggers resolves fully
before the next step, which is why sharing and counters call ``hit`` recursively.

During one operation a fish keeps ``alive`` as it was when the operation began; its HP may drop to
zero or below meanwhile. ``settle_deaths`` runs after the operation.
"""
from .species import (
    AOE,
    CRIT,
    EXPLODE,
    GUARD_COUNTER,
    HARM_ALLY,
    HEAL_CRIT,
    LIMITED_USES,
    LOWEST_CRIT,
    REDUCE,
    REGEN,
    SELF_COUNTER,
    SHARE,
    SHARE_AOE,
)

MAX_HP = 400
COUNTER_DAMAGE = 30
EXPLOSION_DAMAGE = 40
SELF_HARM_DAMAGE = 50
FIXED_CRIT = 120
HEAL = 20
LOW_HP = 120  # counters answer hits that leave a fish below this
ATK_STEP_DAMAGE = 200  # Eel / Sunfish: ATK +20 per this much damage taken


def hit(state, events, side, pos, amount, source=None):
    """Resolve one damage instance on ``side``/``pos``. ``source`` is ``(side, pos)`` of the
    attacker for a direct attack, ``None`` for shared damage, counters, explosions and self-harm."""
    fish = state.teams[side][pos]
    direct = source is not None

    if fish.shields:
        fish.shields -= 1
        events.append({"type": "avoid", "side": side, "pos": pos, "amount": amount, "how": "shield"})
    elif fish.can_dodge and state.dodge():
        events.append({"type": "avoid", "side": side, "pos": pos, "amount": amount, "how": "dodge"})
    else:
        _take(state, events, fish, side, pos, amount, source)

    if direct:
        _after_direct_attack(state, events, fish, side, pos, source)


def _take(state, events, fish, side, pos, amount, source):
    direct = source is not None
    if direct:
        if fish.passive == SHARE:
            amount = _share(state, events, side, pos, amount, "passive")
        if fish.pending_reduce:
            fish.pending_reduce = False
            reduced = amount * 30 // 100
            events.append({"type": "reduce", "side": side, "pos": pos, "amount": amount, "to": reduced})
            amount = reduced
        if fish.pending_share:
            fish.pending_share = False
            amount = _share(state, events, side, pos, amount, "delayed")

    fish.hp -= amount
    events.append(
        {
            "type": "damage",
            "side": side,
            "pos": pos,
            "amount": amount,
            "hp": fish.hp if fish.hp > 0 else 0,
            "direct": direct,
            "source": list(source) if direct else None,
        }
    )
    if fish.passive == SHARE and amount > 0:
        fish.damage_taken += amount
        while fish.damage_taken >= ATK_STEP_DAMAGE:
            fish.damage_taken -= ATK_STEP_DAMAGE
            fish.atk += 20
            events.append({"type": "atk", "side": side, "pos": pos, "atk": fish.atk})

    # A direct hit consumes the delayed heal even when it kills: the trigger is the hit itself.
    gift = direct and fish.pending_heal
    if gift:
        fish.pending_heal = False
    if fish.hp <= 0 or amount <= 0:
        return
    if gift:
        _heal(events, fish, side, pos, "delayed")
    if fish.passive == REGEN:
        _heal(events, fish, side, pos, "passive")


def _heal(events, fish, side, pos, how):
    before = fish.hp
    fish.hp = min(MAX_HP, fish.hp + HEAL)
    events.append({"type": "heal", "side": side, "pos": pos, "amount": fish.hp - before, "hp": fish.hp, "how": how})


def _share(state, events, side, pos, amount, how):
    """Teammates take their shares first, in position order; returns what the fish keeps."""
    team = state.teams[side]
    mates = [i for i in range(len(team)) if i != pos and team[i].alive]
    if not mates:
        return amount
    events.append({"type": "share", "side": side, "pos": pos, "how": how})
    part = (amount * 30 // 100) // len(mates)
    if part > 0:
        for i in mates:
            hit(state, events, side, i, part)
    return amount * 70 // 100


def _after_direct_attack(state, events, fish, side, pos, source):
    src_side, src_pos = source
    if fish.passive == SELF_COUNTER and fish.hp < LOW_HP:
        events.append({"type": "counter", "side": side, "pos": pos, "by": pos, "target": list(source)})
        hit(state, events, src_side, src_pos, COUNTER_DAMAGE)
    elif fish.passive == EXPLODE and fish.hp <= 0:
        events.append({"type": "explode", "side": side, "pos": pos, "target": list(source)})
        hit(state, events, src_side, src_pos, EXPLOSION_DAMAGE)
    if fish.hp >= LOW_HP:
        return
    for i, mate in enumerate(state.teams[side]):
        if i != pos and mate.alive and mate.passive == GUARD_COUNTER:
            events.append({"type": "counter", "side": side, "pos": pos, "by": i, "target": list(source)})
            hit(state, events, src_side, src_pos, COUNTER_DAMAGE)


def _raise_atk(events, fish, side, pos, amount):
    fish.atk += amount
    events.append({"type": "atk", "side": side, "pos": pos, "atk": fish.atk})


def _aoe(state, events, side, actor, atk):
    enemy = 1 - side
    damage = atk * 35 // 100
    for j, target in enumerate(state.teams[enemy]):
        if target.alive:
            hit(state, events, enemy, j, damage, (side, actor))


def normal_attack(state, events, side, actor, enemy):
    atk = state.teams[side][actor].current_atk()
    hit(state, events, 1 - side, enemy, atk * 50 // 100, (side, actor))


def use_skill(state, events, side, actor, ally, enemy):
    """Run the actor's active; targets have been checked by ``rules``."""
    fish = state.teams[side][actor]
    atk = fish.current_atk()  # locked for the whole action (settlement rule 4)
    active = fish.active
    first_uses = fish.skill_uses < LIMITED_USES
    fish.skill_uses += 1
    if active == AOE:
        _aoe(state, events, side, actor, atk)
    elif active == HARM_ALLY:
        hit(state, events, side, ally, SELF_HARM_DAMAGE)
        _raise_atk(events, fish, side, actor, 70)
    elif active == CRIT:
        hit(state, events, 1 - side, enemy, FIXED_CRIT, (side, actor))
    elif active == REDUCE:
        state.teams[side][ally].pending_reduce = True
        _raise_atk(events, fish, side, actor, 20)
    elif active == HEAL_CRIT:
        state.teams[side][ally].pending_heal = True
        if first_uses:
            hit(state, events, 1 - side, enemy, FIXED_CRIT, (side, actor))
    elif active == LOWEST_CRIT:
        target = state.teams[1 - side][enemy]
        rate = 140 if target.hp < 160 else 120
        hit(state, events, 1 - side, enemy, atk * rate // 100, (side, actor))
    elif active == SHARE_AOE:
        state.teams[side][ally].pending_share = True
        if first_uses:
            _aoe(state, events, side, actor, atk)


def settle_deaths(state, events):
    """After an operation: fish at 0 HP or below die, in side then position order. Returns
    whether any fish died."""
    died = False
    for side, team in enumerate(state.teams):
        for pos, fish in enumerate(team):
            if fish.alive and fish.hp <= 0:
                fish.alive = False
                fish.hp = 0
                fish.pending_reduce = fish.pending_share = fish.pending_heal = False
                events.append({"type": "death", "side": side, "pos": pos})
                died = True
    return died
